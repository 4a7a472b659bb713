import type { Command } from 'commander';
import { EXIT_OK, EXIT_PROBLEMS, MemctxError } from '../../kernel/errors.js';
import type { Context } from '../../kernel/cli/context.js';
import type { Runner } from '../../kernel/cli/run.js';
import { DEFAULT_BUDGET } from '../../kernel/bundle/budget.js';
import { resolvePack } from './schema.js';
import { CLI_LABEL } from '../../kernel/schema.js';
import { isInside, displayPath } from '../../kernel/store/paths.js';
import { pack } from '../../kernel/bundle/bundle.js';
import { createProgress } from '../../kernel/cli/progress.js';
import { renderTiming, renderPackReport } from './report.js';
import { join, resolve } from 'node:path';

export { DEFAULT_BUDGET };

interface PackFlags {
  budget?: string;
  window?: string;
  model?: string;
  task?: string;
  focus?: string[];
  profile?: string;
  format?: string;
  encoding?: string;
  out?: string;
  redactSecrets?: boolean;
}

export function register(program: Command, run: Runner): void {
  program
    .command('pack')
    .description('score every memory file and pack the best into one bundle that fits a token budget')
    .option('--budget <tokens|percent>', `hard cap on the bundle: tokens, or P% of --window/--model (default: the profile's, else ${DEFAULT_BUDGET})`)
    .option('--window <tokens>', 'context window, for a percentage budget')
    .option('--model <id>', 'take the context window from a model id (claude-…, gpt-4o, gpt-4.1, gpt-5, gemini-2.5, …[1m])')
    .option('--task <text>', 'what the next prompt is about: files it matches score higher')
    .option('--focus <files...>', 'memory files (or paths that memory files mention) to treat as active')
    .option('--profile <name>', 'a preset: budget and files loaded first (rehydrate, handoff-complete, handoff-specialist, handoff-continuation, handoff-emergency)')
    .option('--format <format>', 'bundle format: markdown, xml or json (default: markdown)')
    .option('--encoding <name>', 'tokenizer encoding: o200k_base or cl100k_base (default: o200k_base)')
    .option('--out <file>', 'write the bundle to a file instead of stdout')
    .option('--redact-secrets', 'mask every detected secret (keys, tokens, passwords) in the bundle (the default)')
    .option('--no-redact-secrets', 'leave detected secrets in the bundle as they are (each is still warned about on stderr)')
    .action(run(runPack));
}

async function runPack(ctx: Context, flags: PackFlags): Promise<number> {
  // The options are checked by pack's one schema (src/commands/pack/schema.ts), as the MCP tool and the library check theirs.
  const { redactSecrets, out: _out, ...rest } = flags;
  const given = Object.fromEntries(Object.entries({ ...rest, redact_secrets: redactSecrets }).filter(([, value]) => value !== undefined));
  const request = resolvePack(given, CLI_LABEL);
  const { budget } = request;

  const root = ctx.memoryDir();
  const outPath = flags.out === undefined ? undefined : resolve(ctx.io.cwd, flags.out);
  if (outPath !== undefined && isInside(root, outPath)) {
    throw new MemctxError(`--out ${flags.out} is inside the memory directory, where the bundle would be read as a memory file`, { hint: 'write it somewhere else, e.g. --out context.md' });
  }

  const progress = createProgress(ctx, 'counting tokens');
  // MEMCTX_TIMING=1 (as ESLint's TIMING=1): wall time per phase on stderr; start-up is the time since the process began.
  const timing = ctx.io.env.MEMCTX_TIMING !== undefined && !['', '0', 'false'].includes(ctx.io.env.MEMCTX_TIMING) ? [{ phase: 'start-up', ms: performance.now() }] : undefined;
  let last = performance.now();
  const onPhase = timing && ((phase: string) => {
    const now = performance.now();
    timing.push({ phase, ms: now - last });
    last = now;
  });
  let result: Awaited<ReturnType<typeof pack>>;
  try {
    result = await pack(
      { root, ...request, out: outPath, memctx: ctx.memctx },
      { now: ctx.io.now, env: ctx.io.env, onProgress: (done, total) => progress.tick(done, total), onPhase },
    );
  } finally {
    progress.stop();
  }
  if (timing) ctx.ui.note(renderTiming(timing, ctx.ui.errChalk), { quietable: false });
  for (const problem of result.problems) ctx.ui.problem({ ...problem, path: displayPath(ctx.io.cwd, join(root, problem.path)) }, 'warning');
  for (const warning of result.warnings) ctx.ui.warn(warning);
  if (outPath === undefined && !ctx.ui.json) ctx.ui.out(result.text);

  const out = outPath === undefined ? undefined : displayPath(ctx.io.cwd, outPath);
  if (ctx.ui.json) {
    const { text, problems, warnings, ...report } = result;
    ctx.ui.printJson({ ...report, problems, out: out ?? null, ...(outPath === undefined ? { bundle: text } : {}) });
  } else if (!ctx.ui.quiet) {
    ctx.ui.note(renderPackReport(result, ctx.ui.errChalk, { fileCount: result.files.length, out }));
  }
  if (result.pinnedLeftOut.length > 0) {
    const message = `${result.pinnedLeftOut.length} pinned file(s) do not fit in full within ${budget} tokens: ${result.pinnedLeftOut.join(', ')}`;
    ctx.ui.error(new MemctxError(message, { hint: 'raise --budget, or unpin some files (pinned: false); the bundle written stays within the budget' }));
    return EXIT_PROBLEMS;
  }
  return EXIT_OK;
}
