import type { Command } from 'commander';
import { EXIT_OK, EXIT_PROBLEMS } from '../../kernel/errors.js';
import type { LintResult } from '../../kernel/lint/types.js';
import type { Context } from '../../kernel/cli/context.js';
import type { Runner } from '../../kernel/cli/run.js';
import { loadLintSetup } from '../../kernel/cli/lint-setup.js';
import { SCHEMA_URL } from '../../kernel/sources/config-schema.js';
import { LintOptions } from './schema.js';
import { CLI_LABEL, fromFlags, parseInput } from '../../kernel/schema.js';
import { lintMemory } from './lint.js';
import { relativeInside, displayPath } from '../../kernel/store/paths.js';
import { FORMATTERS } from './formatters/index.js';
import { RULES } from '../../kernel/lint/rules/index.js';
import { VERSION, LINKS } from '../../kernel/version.js';
import { writeFileAtomic } from '../../kernel/store/write.js';
import { join, resolve } from 'node:path';

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

function onlyErrors(result: LintResult): LintResult {
  const findings = result.findings.filter((f) => f.severity === 'error');
  return { ...result, findings, warningCount: 0, fixableWarningCount: 0 };
}

type LintOptions = import('valibot').InferOutput<typeof import('./schema.js').LintOptions>;
type LintSetup = import('../../kernel/lint/setup.js').LintSetup;
type LintRun = Awaited<ReturnType<typeof import('./lint.js').lintMemory>>;

/** `memctx lint`: check the options, then run, report what was fixed or skipped, print the findings, and exit by them. */
async function runLintCommand(ctx: Context, files: string[], flags: LintFlags): Promise<number> {
  // The options are checked by lint's one schema (src/commands/lint/schema.ts).
  const options = parseInput(LintOptions, fromFlags({ files, ...flags }, ['max_warnings']), CLI_LABEL);
  const format = options.format ?? (ctx.ui.json ? 'json' : 'stylish');
  const setup = loadLintSetup(ctx, options.config);
  if (options.print_config) {
    ctx.ui.printJson({ $schema: SCHEMA_URL, ...setup.config, file: setup.configPath ?? null });
    return EXIT_OK;
  }
  const run = await lintMemory(setup, { fix: options.fix, files }, ctx.io);
  // A machine-read report (another format, or a file) keeps stdout to itself: notes go to stderr.
  const machine = format !== 'stylish' || options.output_file !== undefined;
  reportRun(ctx, run, files, Boolean(options.fix), machine);
  const text = await renderFindings(ctx, setup, ctx.ui.quiet ? onlyErrors(run.result) : run.result, format, machine);
  if (options.output_file !== undefined) {
    await writeFileAtomic(resolve(ctx.io.cwd, options.output_file), typeof text === 'string' ? text : [...text].join(''));
  } else if (typeof text === 'string') {
    ctx.ui.out(text);
  } else {
    for (const piece of text) ctx.ui.out(piece);
  }
  if (!machine && run.result.findings.length === 0) ctx.ui.info(`✔ no problems in ${run.files} memory file${run.files === 1 ? '' : 's'}`);
  return exitCode(ctx, run.result, options);
}

/** What the run skipped and fixed, and a note when none of the given files is in the memory directory. */
function reportRun(ctx: Context, run: LintRun, files: string[], fix: boolean, machine: boolean): void {
  for (const why of run.skipped) ctx.ui.warn(why);
  for (const change of run.changes) {
    if (!machine) ctx.ui.info(`fixed: ${change}`);
    else ctx.ui.note(`fixed: ${change}\n`);
  }
  if (fix && run.changes.length === 0 && !machine) ctx.ui.info('nothing to fix');
  const { outside } = run;
  if (outside.length && files.length === outside.length) ctx.ui.note(`memctx lint: none of the ${outside.length} given file${outside.length === 1 ? ' is' : 's are'} in the memory directory; nothing to check\n`);
}

/** The findings in the chosen format; plain (no colour) when machine-read. */
async function renderFindings(ctx: Context, setup: LintSetup, result: LintResult, format: NonNullable<LintOptions['format']>, plain: boolean): Promise<string | Generator<string>> {
  const abs = (file: string) => join(setup.root, file);
  return FORMATTERS[format](result, {
    displayPath: (file) => displayPath(ctx.io.cwd, abs(file)),
    absolutePath: abs,
    repoPath: (file) => relativeInside(setup.repo.root, abs(file)),
    repoRoot: setup.repo.root,
    chalk: plain ? new (await import('chalk')).Chalk({ level: 0 }) : ctx.ui.chalk,
    rules: RULES,
    config: setup.config,
    version: VERSION,
    links: LINKS,
  });
}

/** 1 for an error, or for more warnings than --max-warnings; else 0. */
function exitCode(ctx: Context, result: LintResult, options: LintOptions): number {
  if (result.errorCount > 0) return EXIT_PROBLEMS;
  const max = options.max_warnings;
  if (max !== undefined && result.warningCount > max) {
    ctx.ui.note(`memctx lint: ${result.warningCount} warnings, more than --max-warnings ${max}\n`, { quietable: false });
    return EXIT_PROBLEMS;
  }
  return EXIT_OK;
}
