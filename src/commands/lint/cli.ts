import type { Command } from 'commander';
import type { Context } from '../../kernel/cli/context.js';
import type { Runner } from '../../kernel/cli/run.js';
import { LintOptions } from './schema.js';
import { CLI_LABEL, fromFlags, parseInput } from '../../kernel/schema.js';
import { lintPlace, ruleOnAsRead, type LintPlace } from '../../kernel/lint/place.js';
import { earlyDriftLog } from '../../kernel/drift/check.js';
import { historyCache } from '../../kernel/state/history-cache.js';
import { loadModule } from '../../kernel/load.js';
import type { Early } from './report.js';

interface LintFlags {
  fix?: boolean;
  format?: string;
  maxWarnings?: string;
  outputFile?: string;
  config?: string;
  printConfig?: boolean;
}

export function register(program: Command, run: Runner): void {
  program
    .command('lint')
    .description('check memory hygiene: frontmatter, index, duplicates, stale and ephemeral content, broken references, sessions, secrets')
    .argument('[files...]', 'report only these memory files (as lint-staged and pre-commit pass them); files outside the memory directory are ignored')
    .option('--fix', 'apply safe fixes (rebuild MEMORY.md, add a missing `updated`) and report what changed')
    .option('-f, --format <name>', 'output format: stylish | json | github | sarif (default stylish; json with --json)')
    .option('--max-warnings <n>', 'exit 1 when there are more than n warnings')
    .option('-o, --output-file <file>', 'write the report to this file instead of stdout')
    .option('-c, --config <file>', 'use this configuration file instead of memctx.config.json or .memory/config.json')
    .option('--print-config', 'print the configuration in effect (every rule, threshold and type) as JSON and exit')
    .action(run(runLintCommand));
}

type LintOptions = import('valibot').InferOutput<typeof import('./schema.js').LintOptions>;

/** `memctx lint`: check the options, then run, report what was fixed or skipped, print the findings, and exit by them. */
async function runLintCommand(ctx: Context, files: string[], flags: LintFlags): Promise<number> {
  // The options are checked by lint's one schema (src/commands/lint/schema.ts).
  const options = parseInput(LintOptions, fromFlags({ files, ...flags }, ['max_warnings']), CLI_LABEL);
  const early = startDrift(ctx, options);
  try {
    // the rules and lint's use case load now, beside drift's git log
    const { lintAndReport } = await loadModule('./report.js', import.meta.url, () => import('./report.js'));
    return await lintAndReport(ctx, files, options, early);
  } finally {
    await early.drift?.log?.job.stop();
  }
}

/**
 * Drift's `git log`, started before the rules and the rest of lint load (they take ~50 ms of CPU before
 * lint would start it), when the memory folder is in git and the configuration as read leaves
 * content/drifted on; lint checks its range. No `drift` when not tried: lint then decides itself. The
 * place read for it is the setup's.
 */
function startDrift(ctx: Context, options: LintOptions): Early {
  let place: LintPlace;
  try {
    place = lintPlace({ memoryDir: ctx.memoryDir(), claude: ctx.globals.claude, configFile: options.config }, ctx.io);
  } catch {
    // the setup says what is wrong
    return {};
  }
  if (options.print_config || !place.repo.git || !ruleOnAsRead(place, 'content/drifted')) return { place };
  return { place, drift: { log: earlyDriftLog(place.root, ctx.io.env, historyCache(place.root)) } };
}
