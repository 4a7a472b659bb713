/** lint's run and report once the rules and use case have loaded: the setup, the run, what changed, the findings, the exit code. */
import { EXIT_OK, EXIT_PROBLEMS } from '../../kernel/errors.js';
import type { LintResult } from '../../kernel/lint/types.js';
import type { Context } from '../../kernel/cli/context.js';
import { loadLintSetup, type LintSetup } from '../../kernel/cli/lint-setup.js';
import { SCHEMA_URL } from '../../kernel/sources/config-schema.js';
import { lintMemory, type StartedDrift } from './lint.js';
import { relativeInside, displayPath } from '../../kernel/store/paths.js';
import { FORMATTERS } from './formatters/index.js';
import { RULES } from '../../kernel/lint/rules/index.js';
import { VERSION, LINKS } from '../../kernel/version.js';
import { writeFileAtomic } from '../../kernel/store/write.js';
import { join, resolve } from 'node:path';
import type { LintPlace } from '../../kernel/lint/place.js';

type LintOptions = import('valibot').InferOutput<typeof import('./schema.js').LintOptions>;
type LintRun = Awaited<ReturnType<typeof lintMemory>>;

/** What the command read before lint loaded: the place (the setup's), and drift's log if it was started. */
export interface Early {
  place?: LintPlace;
  drift?: StartedDrift;
}

function onlyErrors(result: LintResult): LintResult {
  const findings = result.findings.filter((f) => f.severity === 'error');
  return { ...result, findings, warningCount: 0, fixableWarningCount: 0 };
}

/** `memctx lint` once its options are checked: run, report what was fixed or skipped, print the findings, and exit by them. */
export async function lintAndReport(ctx: Context, files: string[], options: LintOptions, { place, drift }: Early): Promise<number> {
  const format = options.format ?? (ctx.ui.json ? 'json' : 'stylish');
  const setup = loadLintSetup(ctx, options.config, place);
  if (options.print_config) {
    ctx.ui.printJson({ $schema: SCHEMA_URL, ...setup.config, file: setup.configPath ?? null });
    return EXIT_OK;
  }
  const run = await lintMemory(setup, { fix: options.fix, files, drift }, ctx.io);
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
