import type { Command } from 'commander';
import { status } from '../../kernel/capacity/measure.js';
import { resolveStatus } from '../../kernel/capacity/schema.js';
import { CLI_LABEL, fromFlags } from '../../kernel/schema.js';
import type { Context } from '../../kernel/cli/context.js';
import type { Runner } from '../../kernel/cli/run.js';
import { runStatusline } from './statusline.js';
import { readStdinBytes } from '../../kernel/cli/input.js';
import { renderStatus } from '../../kernel/cli/capacity.js';

export function register(program: Command, run: Runner): void {
  program
    .command('status')
    .description('how full the context window is: green / yellow / orange / red, with what to do')
    .argument('[file]', 'transcript (Claude Code or Codex JSONL, Gemini CLI JSON, OpenAI messages JSON, plain text); - for stdin; default: the latest Claude Code session of this directory')
    .option('--window <tokens>', 'context window in tokens (e.g. 200000, 200k, 1m)')
    .option('--model <id>', 'take the window from a model preset (claude-sonnet-4-5, sonnet[1m], gpt-4o, gpt-4.1, gpt-5, gemini-2.5-pro, …)')
    .option('--fail-on <level>', 'exit 1 at or above this level: yellow, orange or red')
    .option('--thresholds <y,o,r>', 'percentages where yellow, orange and red start (default 80,90,95)')
    .option('--count', 'count the text even when the transcript records usage')
    .option('--format <format>', 'read the file as this format: claude, codex, gemini, openai or text (default: detected)')
    .option('--encoding <name>', 'tokenizer for counting: o200k_base (default) or cl100k_base')
    .option('--statusline', "read Claude Code's status-line JSON on stdin and print one short line")
    .action(run(runStatus));
}

interface StatusFlags {
  window?: string;
  model?: string;
  failOn?: string;
  thresholds?: string;
  count?: boolean;
  format?: string;
  encoding?: string;
  statusline?: boolean;
}

export async function runStatus(ctx: Context, file: string | undefined, flags: StatusFlags): Promise<number> {
  const { statusline, ...options } = flags;
  if (statusline) {
    return runStatusline(ctx.io, ctx.globals, options);
  }
  // The options are checked by status's one schema (src/kernel/capacity/schema.ts), as the MCP tool's are.
  const request = resolveStatus(fromFlags(options), CLI_LABEL);
  const { report, exitCode } = await status(file, { ...request, memctx: ctx.memctx }, { cwd: ctx.io.cwd, home: ctx.io.home, env: ctx.io.env, readStdinBytes: () => readStdinBytes(ctx.io.stdin) });
  if (ctx.ui.json) {
    ctx.ui.printJson({ ...report, percent: Math.floor(report.percent * 10) / 10 });
  } else {
    for (const note of report.notes) ctx.ui.warn(`${report.file}: ${note}`);
    if (!ctx.ui.quiet) ctx.ui.out(renderStatus(report, ctx.ui.chalk));
  }
  return exitCode;
}
