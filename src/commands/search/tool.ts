/** The `search` tool: ranked hits with their descriptions, possible secrets masked. */
import { redactSecrets } from '../../kernel/lint/secrets.js';
import { SearchInput, SearchOutput } from './schema.js';
import { TOOL_TEXT } from '../../kernel/mcp/descriptions.js';
import { defineTool, structuredResult } from '../../kernel/mcp/tool.js';
import { ARG_LABEL } from '../../kernel/schema.js';
import { search } from './search.js';

export default defineTool({
  name: 'search',
  title: 'Search memory',
  description: TOOL_TEXT.search,
  input: SearchInput,
  output: SearchOutput,
  // It writes memctx's scan cache under .memctx/ (never a memory file): not read-only, not destructive.
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(args, { root, io }) {
    const { hits } = await search(
      { root, query: args.query, limit: args.limit ?? 10, type: args.type, kind: args.kind, tag: args.tag, minImportance: args.min_importance === undefined ? undefined : String(args.min_importance), since: args.since, label: ARG_LABEL },
      { now: io.now },
    );
    // Names and descriptions are memory text: masked like every other answer that carries it.
    const masked = JSON.parse(await redactSecrets(JSON.stringify(hits))) as typeof hits;
    const lines = masked.map((h) => `/memories/${h.path}\t${h.score.toFixed(2)}\t${h.description || h.name}`);
    return structuredResult({ hits: masked }, masked.length ? lines.join('\n') : `no memory file matches "${args.query}"`);
  },
});
