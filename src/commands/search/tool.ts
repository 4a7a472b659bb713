/** The `search` tool: ranked hits with their descriptions, possible secrets masked. */
import { redactSecrets } from '../../kernel/lint/secrets.js';
import { SearchInput, SearchOutput } from './schema.js';
import { defineTool, structuredResult } from '../../kernel/mcp/tool.js';
import { ARG_LABEL } from '../../kernel/schema.js';
import { search } from './search.js';

/** What the model reads about the tool: what it does, when to use it, its limits. */
const DESCRIPTION = [
  'Ranked search over the memory files, in the order `pack` with the same task ranks them (text match, then importance and recency). Use it to find',
  'what the memory says about a subject before answering or changing code. Returns paths under /memories with scores',
  'and descriptions; open a hit with `memory view`.',
].join(' ');

export default defineTool({
  name: 'search',
  title: 'Search memory',
  description: DESCRIPTION,
  input: SearchInput,
  output: SearchOutput,
  // It writes memctx's scan cache under .memctx/ (never a memory file): not read-only, not destructive.
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(args, { root, io }) {
    const { hits } = await search(
      { root, query: args.query, limit: args.limit ?? 10, type: args.type, kind: args.kind, tag: args.tag, minImportance: args.min_importance === undefined ? undefined : String(args.min_importance), since: args.since, label: ARG_LABEL },
      { now: io.now, env: io.env },
    );
    // Names and descriptions are memory text: masked like every other answer that carries it.
    const masked = JSON.parse(await redactSecrets(JSON.stringify(hits))) as typeof hits;
    const lines = masked.map((h) => `/memories/${h.path}\t${h.score.toFixed(2)}\t${h.description || h.name}`);
    return structuredResult({ hits: masked }, masked.length ? lines.join('\n') : `no memory file matches "${args.query}"`);
  },
});
