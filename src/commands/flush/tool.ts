/** The `flush` tool: a session summary saved under /memories/sessions/. */
import { ARG_LABEL, parseInput } from '../../kernel/schema.js';
import { FlushInput, FlushOutput, resolveFlush } from './schema.js';
import { insideProject } from '../../kernel/mcp/confine.js';
import { TOOL_TEXT } from '../../kernel/mcp/descriptions.js';
import { defineTool, structuredResult } from '../../kernel/mcp/tool.js';
import { flush } from './flush.js';
import { redactSecrets } from '../../kernel/lint/secrets.js';

export default defineTool({
  name: 'flush',
  title: 'Save a session summary',
  description: TOOL_TEXT.flush,
  input: FlushInput,
  output: FlushOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  // The tool's names mapped onto flush's options, then checked and defaulted as the CLI's flags are.
  parse: (input) => {
    const args = parseInput(FlushInput, input, ARG_LABEL);
    return resolveFlush({ goal: args.goal, progress: args.progress, decision: args.decisions, changed: args.changed_files, blocker: args.blockers, next: args.next_steps, session_id: args.session_id, dry_run: args.dry_run, agent_summary: true });
  },
  async run(options, { root, io }) {
    const outcome = await flush(
      options,
      { ...io, root, readStdin: async () => '', mayRead: (abs) => insideProject(abs, io) },
    );
    const { path, written, replaced, warnings, notes } = outcome;
    // The session file is memory text: what goes back to the model has secrets masked (the file keeps them; lint reports them).
    const fileText = await redactSecrets(outcome.text);
    const shown = await redactSecrets(`/memories/${path}`);
    return structuredResult({ path: shown, written, replaced, text: fileText, warnings, notes }, written ? `saved ${shown}${warnings.length ? ` (${warnings.join('; ')})` : ''}` : fileText);
  },
});
