/** The `flush` tool: a session summary saved under /memories/sessions/. */
import { ARG_LABEL, parseInput } from '../../kernel/schema.js';
import { FlushInput, FlushOutput, resolveFlush } from './schema.js';
import { insideProject } from '../../kernel/mcp/confine.js';
import { defineTool, structuredResult } from '../../kernel/mcp/tool.js';
import { flush } from './flush.js';
import { redactSecrets } from '../../kernel/lint/secrets.js';

/** What the model reads about the tool: what it does, when to use it, its limits. */
const DESCRIPTION = [
  'Save this session\'s summary under /memories/sessions/: all six fields, goal, progress, decisions (each: what and why),',
  'changed_files, blockers and next_steps; write ["none"] for one with nothing in it. Aim for about 500 tokens; over 650',
  'it is refused and nothing is written. Use it before the context is compacted or the session ends; with session_id a',
  'later call replaces the same file. dry_run returns the file without writing it.',
].join(' ');

export default defineTool({
  name: 'flush',
  title: 'Save a session summary',
  description: DESCRIPTION,
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
