import type { Command } from 'commander';
import { status } from '../../kernel/capacity/measure.js';
import { resolveStatus, type StatusRequest } from '../../kernel/capacity/schema.js';
import { MemctxError } from '../../kernel/errors.js';
import { SESSION_START_BUDGET } from '../../kernel/bundle/startup.js';
import { renderStartup } from './startup-report.js';
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
    .option('--startup', "instead of a transcript: what the SessionStart bundle injects, by source, against its budget and Claude Code's hook-output limit (exit 1 over the limit)")
    .option('--budget <tokens|percent>', `with --startup: the bundle's budget (default ${SESSION_START_BUDGET}, what init --agent claude writes), or P% of --window/--model`)
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
  startup?: boolean;
  budget?: string;
}

export async function runStatus(ctx: Context, file: string | undefined, flags: StatusFlags): Promise<number> {
  const { statusline, ...options } = flags;
  if (statusline) {
    return runStatusline(ctx.io, ctx.globals, options);
  }
  // The options are checked by status's one schema (src/kernel/capacity/schema.ts), as the MCP tool's are.
  const request = resolveStatus(fromFlags(options), CLI_LABEL);
  if (request.startup) return runStartup(ctx, file, request);
  const { report, exitCode } = await status(file, { ...request, memctx: ctx.memctx }, { cwd: ctx.io.cwd, home: ctx.io.home, env: ctx.io.env, readStdinBytes: () => readStdinBytes(ctx.io.stdin) });
  if (ctx.ui.json) {
    ctx.ui.printJson({ ...report, percent: Math.floor(report.percent * 10) / 10 });
  } else {
    for (const note of report.notes) ctx.ui.warn(`${report.file}: ${note}`);
    if (!ctx.ui.quiet) ctx.ui.out(renderStatus(report, ctx.ui.chalk));
  }
  return exitCode;
}

/** `status --startup`: the SessionStart bundle, measured without writing anything (commands/status/startup.ts). */
async function runStartup(ctx: Context, file: string | undefined, request: StatusRequest): Promise<number> {
  if (file !== undefined) {
    throw new MemctxError(`--startup measures the SessionStart bundle, not a transcript: ${file} was given too`, { hint: 'leave out the file, or leave out --startup to measure the transcript' });
  }
  const root = ctx.memoryDir();
  const { startupStatus } = await import('./startup.js');
  const { report, exitCode } = await startupStatus({ root, budget: request.budget!, encoding: request.encoding, memctx: ctx.memctx }, { now: ctx.io.now, env: ctx.io.env });
  for (const warning of report.warnings) ctx.ui.warn(warning);
  if (ctx.ui.json) ctx.ui.printJson(report);
  else if (!ctx.ui.quiet) ctx.ui.out(renderStartup(report, ctx.ui.chalk));
  // --quiet still says why the exit code is 1.
  else if (exitCode !== 0) ctx.ui.note(`memctx: ${report.advice}\n`, { quietable: false });
  return exitCode;
}
