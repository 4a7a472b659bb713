/** The `pack` tool: the bundle for a task under a token budget, always Markdown, secrets always masked. */
import { PackOutput, PackToolInput, resolvePack } from '../../schemas/pack.js';
import { ARG_LABEL } from '../../schemas/fields.js';
import { TOOL_TEXT } from '../descriptions.js';
import { defineTool } from '../tool.js';
import { pack } from '../../actions/pack.js';

export default defineTool({
  name: 'pack',
  title: 'Pack memory for a task',
  description: TOOL_TEXT.pack,
  input: PackToolInput,
  output: PackOutput,
  // It writes memctx's caches and access counts under .memctx/ (never a memory file).
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  // focus is matched against the memory files' paths and links only, never read from disk.
  // resolvePack checks the arguments against PackToolInput and settles the budget and profile.
  parse: (args) => resolvePack(args, ARG_LABEL, PackToolInput),
  async run(request, { root, io }) {
    const result = await pack(
      { root, ...request, format: 'markdown', redactSecrets: true },
      { now: io.now, env: io.env },
    );
    const { text: bundle, problems: _problems, ...report } = result;
    return { content: [{ type: 'text', text: bundle }], structuredContent: JSON.parse(JSON.stringify(report)) as Record<string, unknown> };
  },
});
