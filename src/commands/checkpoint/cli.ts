import type { Command } from 'commander';
import { EXIT_OK } from '../../kernel/errors.js';
import type { Context } from '../../kernel/cli/context.js';
import type { Runner } from '../../kernel/cli/run.js';
import { checkpoint } from './checkpoint.js';
import { hookDeps } from '../../kernel/cli/input.js';
import { CLI_LABEL, fromFlags } from '../../kernel/schema.js';

/** The flags commander fills in when none is given (the fast entry, cli/fast/checkpoint.ts, passes the same). */
export const CHECKPOINT_DEFAULTS = { wait: '3000' } as const;

interface Flags {
  at?: string;
  cli?: boolean;
  wait: string;
  window?: string;
  model?: string;
}

export function register(program: Command, run: Runner): void {
  program
    .command('checkpoint')
    .description("Claude Code Stop hook: once the context crosses 80% (flush.askAt), ask the agent to save its session summary; never fails")
    .option('--at <percents>', 'ask at these context percentages, e.g. 80 or 80,95 (default: flush.askAt in the configuration, else 80)')
    .option('--cli', 'ask for `memctx flush --agent-summary` instead of the flush MCP tool')
    .option('--window <tokens>', 'the context window, as for status (default: from the model the transcript names, else 200k)')
    .option('--model <id>', 'take the context window from this model id, e.g. sonnet[1m]')
    .option('--wait <ms>', 'wait at most this long for the message that just ended to reach the transcript', CHECKPOINT_DEFAULTS.wait)
    .action(run(runCheckpoint));
}

export async function runCheckpoint(ctx: Context, flags: Flags): Promise<number> {
  // checked by checkpoint's schema inside the hook, which logs a bad value and exits 0
  const result = await checkpoint(fromFlags({ ...flags }, ['wait']), hookDeps(ctx), CLI_LABEL);
  // Claude Code reads a JSON object on stdout: "block" with a reason keeps the agent going.
  if (result.ask) ctx.ui.out(`${JSON.stringify({ decision: 'block', reason: result.ask })}\n`);
  else if (result.why) ctx.ui.note(`memctx checkpoint: ${result.why}\n`, { quietable: true });
  return EXIT_OK;
}
