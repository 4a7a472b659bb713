import type { Command } from 'commander';
import { EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, MemctxError } from '../errors.js';
import type { LintResult } from '../lint/types.js';
import type { Context } from './context.js';
import type { Runner } from './run.js';
import { parseChoice } from '../actions/options.js';
import { loadLintSetup } from './lint-setup.js';
import { SCHEMA_URL } from '../lint/schema.js';
import { lintMemory } from '../actions/lint.js';
import { relativeInside, displayPath } from '../store/paths.js';
import { FORMATTERS } from '../lint/formatters/index.js';
import { RULES } from '../lint/rules/index.js';
import { VERSION, LINKS } from '../version.js';
import { writeFileAtomic } from '../store/write.js';
import { join, resolve } from 'node:path';

const FORMATS = ['stylish', 'json', 'github', 'sarif'];

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
    .option('-f, --format <name>', `output format: ${FORMATS.join(' | ')} (default stylish; json with --json)`)
    .option('--max-warnings <n>', 'exit 1 when there are more than n warnings')
    .option('-o, --output-file <file>', 'write the report to this file instead of stdout')
    .option('-c, --config <file>', 'use this configuration file instead of memctx.config.json or .memory/config.json')
    .option('--print-config', 'print the configuration in effect (every rule, threshold and type) as JSON and exit')
    .action(run(runLintCommand));
}

function parseMaxWarnings(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\s*\d+\s*$/.test(value)) throw new MemctxError(`--max-warnings must be a whole number, 0 or more (got "${value}")`, { exitCode: EXIT_USAGE });
  return Number(value);
}

function onlyErrors(result: LintResult): LintResult {
  const findings = result.findings.filter((f) => f.severity === 'error');
  return { ...result, findings, warningCount: 0, fixableWarningCount: 0 };
}

// eslint-disable-next-line complexity -- one branch per lint flag (--config, --print-config, --fix, --format, --output-file, --max-warnings) mapped onto the action
async function runLintCommand(ctx: Context, files: string[], flags: LintFlags): Promise<number> {
  const format = parseChoice('--format', flags.format, FORMATS) ?? (ctx.ui.json ? 'json' : 'stylish');
  const maxWarnings = parseMaxWarnings(flags.maxWarnings);
  const setup = loadLintSetup(ctx, flags.config);
  if (flags.printConfig) {
    ctx.ui.printJson({ $schema: SCHEMA_URL, ...setup.config, file: setup.configPath ?? null });
    return EXIT_OK;
  }
  const { result, files: count, changes, skipped, outside } = await lintMemory(setup, { fix: flags.fix, files }, ctx.io);
  const machine = format !== 'stylish' || flags.outputFile !== undefined;
  for (const why of skipped) ctx.ui.warn(why);
  for (const change of changes) {
    if (!machine) ctx.ui.info(`fixed: ${change}`);
    else ctx.ui.note(`fixed: ${change}\n`);
  }
  if (flags.fix && changes.length === 0 && !machine) ctx.ui.info('nothing to fix');
  if (outside.length && files.length === outside.length) ctx.ui.note(`memctx lint: none of the ${outside.length} given file${outside.length === 1 ? ' is' : 's are'} in the memory directory; nothing to check\n`);
  const abs = (file: string) => join(setup.root, file);
  const shown = ctx.ui.quiet ? onlyErrors(result) : result;
  const plain = format !== 'stylish' || flags.outputFile !== undefined;
  const text = FORMATTERS[format](shown, {
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
  if (flags.outputFile !== undefined) {
    await writeFileAtomic(resolve(ctx.io.cwd, flags.outputFile), text);
  } else {
    ctx.ui.out(text);
  }
  if (!machine && result.findings.length === 0) ctx.ui.info(`✔ no problems in ${count} memory file${count === 1 ? '' : 's'}`);
  if (result.errorCount > 0) return EXIT_PROBLEMS;
  if (maxWarnings !== undefined && result.warningCount > maxWarnings) {
    ctx.ui.note(`memctx lint: ${result.warningCount} warnings, more than --max-warnings ${maxWarnings}\n`, { quietable: false });
    return EXIT_PROBLEMS;
  }
  return EXIT_OK;
}
