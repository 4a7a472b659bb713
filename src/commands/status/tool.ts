/** The `status` tool: how full the context window is, for a transcript of this project only. */
import { inMemoriesTerms } from '../../kernel/memory-errors.js';
import { ARG_LABEL } from '../../kernel/schema.js';
import { StatusInput, StatusOutput, resolveStatus } from '../../kernel/capacity/schema.js';
import { confineTranscript } from '../../kernel/mcp/confine.js';
import { defineTool, structuredResult } from '../../kernel/mcp/tool.js';
import { status } from '../../kernel/capacity/measure.js';
import { startupStatus } from './startup.js';

/** What the model reads about the tool: what it does, when to use it, its limits. */
const DESCRIPTION = [
  'How full the context window is for a transcript of this project (default: the latest Claude Code session of the working',
  "directory; otherwise a .jsonl in Claude Code's project folder or Codex's sessions folder, or a transcript file inside the project):",
  'tokens used, the window, the level (green, yellow, orange, red) and advice. Use it to decide when to flush and compact.',
  'With startup: true (and optionally budget), what the SessionStart bundle injects instead: its tokens by source (index, pinned,',
  "sessions, drifted, others) against the budget, and its characters against Claude Code's hook-output limit.",
].join(' ');

export default defineTool({
  name: 'status',
  title: 'Context window status',
  description: DESCRIPTION,
  input: StatusInput,
  output: StatusOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
  // resolveStatus checks the arguments against StatusInput and settles the defaults, as for the CLI's flags.
  parse: (args) => resolveStatus(args, ARG_LABEL, StatusInput),
  async run(request, { root, io }) {
    if (request.startup) {
      const { report } = await startupStatus({ root, budget: request.budget!, encoding: request.encoding }, io);
      const shown = JSON.parse(inMemoriesTerms(JSON.stringify(report), root)) as Record<string, unknown>;
      return structuredResult(shown, inMemoriesTerms(`SessionStart bundle: ${report.tokens} of ${report.budget} tokens, ${report.chars} of ${report.hookOutputLimitChars} characters. ${report.advice}`, root));
    }
    const transcript = request.transcript === undefined ? undefined : confineTranscript(request.transcript, io);
    const { report } = await status(transcript, request, { ...io, readStdinBytes: async () => Buffer.alloc(0) });
    // Host paths (the transcript's, commands naming the memory directory) are not the model's business:
    // the memory directory is /memories, any other path its last part.
    const shown = JSON.parse(inMemoriesTerms(JSON.stringify(report), root)) as Record<string, unknown>;
    return structuredResult(shown, inMemoriesTerms(`${report.percent}% of ${report.window} tokens (${report.level}): ${report.advice}`, root));
  },
});
