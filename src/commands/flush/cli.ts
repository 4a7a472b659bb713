import type { Command } from 'commander';
import { EXIT_OK } from '../../kernel/errors.js';
import { resolveFlush, type FlushRequest } from './schema.js';
import { CLI_LABEL, fromFlags } from '../../kernel/schema.js';
import type { Context } from '../../kernel/cli/context.js';
import { collect, type Runner } from '../../kernel/cli/run.js';
import { hookDeps } from '../../kernel/cli/input.js';
import * as actions from './flush.js';
import { logHookProblem, notLoggedNote } from '../../kernel/state/flush-log.js';
import { hookRequest, report, runFlushHook } from './hook.js';

/** The flags as commander gives them: strings, the repeatable ones as lists. */
type Flags = Record<string, string | string[] | boolean | undefined> & { hook?: boolean; dryRun?: boolean };

/** The options' defaults, as commander fills them in (main.ts runs `flush --hook` through hook.ts without commander, with the request the schema makes of these). */
const HOOK = hookRequest(undefined);
/** The flag defaults: the request a bare `flush --hook` settles to, as commander's strings. */
export const FLUSH_DEFAULTS = { template: HOOK.template, target: String(HOOK.target), max: String(HOOK.max), encoding: HOOK.encoding, summarizeTimeout: String(HOOK.summarizeTimeout) };

export function register(program: Command, run: Runner): void {
  program
    .command('flush')
    .description('write a fixed-schema session summary (about 500 tokens) to sessions/ and re-index')
    .option('-t, --template <name>', 'session, decision, notes, or templates/NAME.md in the memory directory', FLUSH_DEFAULTS.template)
    .option('--from <file>', 'read fields from a JSON or YAML file (- for stdin)')
    .option('--goal <text>', 'what this session set out to do')
    .option('--progress <text>', 'what was done (repeatable)', collect)
    .option('--decision <text>', 'a decision and why (repeatable)', collect)
    .option('--changed <path>', 'a changed file (repeatable)', collect)
    .option('--blocker <text>', 'what is stuck or unresolved (repeatable)', collect)
    .option('--next <text>', 'a next step (repeatable)', collect)
    .option('--field <key=value>', 'any template field, e.g. rationale=... (repeatable)', collect)
    .option('--transcript <file>', 'take marked lines (DECISION:, BLOCKER:, TODO:, Next steps:) and written files from a transcript')
    .option('--git', 'add the changed files from git status, each with a one-line summary')
    .option('--since <rev>', 'with --git: also the files changed since this revision')
    .option('--session-id <id>', 'record this session id in the frontmatter')
    .option('--target <tokens>', 'token target the shortening aims for', FLUSH_DEFAULTS.target)
    .option('--max <tokens>', 'over this many tokens the summary is shortened to the target', FLUSH_DEFAULTS.max)
    .option('--strict', 'refuse (exit 1, nothing written) instead of shortening')
    .option('--encoding <name>', 'tokenizer: o200k_base or cl100k_base', FLUSH_DEFAULTS.encoding)
    .option('-n, --dry-run', 'print the file instead of writing it')
    .option('--agent-summary', "the agent's own summary: all six fields required (\"none\" for an empty one), refused over --max; one file per --session-id")
    .option('--hook', 'read a Claude Code SessionEnd/PreCompact hook JSON on stdin; never fails (problems go to the flush log in .git/memctx/)')
    .option('--summarize-with <cmd>', 'ask this command (e.g. a local LLM CLI) for the six fields; its answer is kept only when it parses and fits')
    .option('--summarize-timeout <seconds>', 'with --summarize-with: seconds to wait for the command', FLUSH_DEFAULTS.summarizeTimeout)
    .action(run(runFlush));
}

/** The flags checked by flush's one schema (src/commands/flush/schema.ts), as the MCP tool's arguments are. */
function resolveFlags(flags: Flags): FlushRequest {
  return resolveFlush(fromFlags(flags, ['summarize_timeout']), CLI_LABEL);
}

export async function runFlush(ctx: Context, flags: Flags): Promise<number> {
  if (flags.hook) {
    let options: FlushRequest;
    try {
      options = resolveFlags(flags);
    } catch (err) {
      // never fails the session: a bad value is logged, as an unknown option is (kernel/cli/program.ts)
      const { message, hint } = err as { message: string; hint?: string };
      const problem = `${message}${hint ? ` (${hint})` : ''}`;
      const log = await logHookProblem(problem, hookDeps(ctx));
      ctx.ui.note(`memctx flush --hook: ${problem}${notLoggedNote(log)}\n`, { quietable: false });
      return EXIT_OK;
    }
    return runFlushHook(ctx, options);
  }
  const options = resolveFlags(flags);
  try {
    report(ctx, options, await actions.flush(options, { ...hookDeps(ctx), root: ctx.memoryDir() }));
  } catch (err) {
    if (err instanceof actions.FlushRefused) for (const w of err.warnings) ctx.ui.warn(w);
    throw err;
  }
  return EXIT_OK;
}
