import type { Command } from 'commander';
import { EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, MemctxError } from '../store/errors.js';
import type { LintResult } from '../lint/types.js';
import type { Context } from './context.js';
import type { Runner } from './run.js';
import type { LintSetup } from './lint-setup.js';

const FORMATS = ['stylish', 'json', 'github', 'sarif'];

interface LintFlags {
  fix?: boolean;
  format?: string;
  maxWarnings?: string;
}

export function register(program: Command, run: Runner): void {
  program
    .command('lint')
    .description('check memory hygiene: frontmatter, index, duplicates, stale and ephemeral content, broken references, sessions, secrets')
    .option('--fix', 'apply safe fixes (rebuild MEMORY.md, add a missing `updated`) and report what changed')
    .option('-f, --format <name>', `output format: ${FORMATS.join(' | ')} (default stylish; json with --json)`)
    .option('--max-warnings <n>', 'exit 1 when there are more than n warnings')
    .action(run(runLintCommand));
}

function parseMaxWarnings(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\s*\d+\s*$/.test(value)) throw new MemctxError(`--max-warnings must be a whole number, 0 or more (got "${value}")`, { exitCode: EXIT_USAGE });
  return Number(value);
}

async function lintOnce(ctx: Context, setup: LintSetup): Promise<{ result: LintResult; files: number }> {
  const { scanMemoryDir } = await import('../store/scan.js');
  const { readIndexFile } = await import('../store/index-file.js');
  const { listDirFiles, listRepoFiles } = await import('../store/repo.js');
  const { runLint, activeRules } = await import('../lint/runner.js');
  const { root, config } = setup;
  const scan = scanMemoryDir(root);
  const files = scan.files.length + scan.problems.length;
  // Files with no date of their own get their last commit time (one git log), so --fix never writes a clone's time.
  const undated = scan.files.filter((f) => f.hasFrontmatter && f.updated === undefined);
  if (undated.length > 0) {
    const { lastCommitTimes } = await import('../store/git.js');
    const times = lastCommitTimes(root, undated.map((f) => f.path), ctx.io.env);
    for (const f of undated) if (times.has(f.path)) f.committedMs = times.get(f.path);
  }
  let indexText: string | undefined;
  let indexUnreadable = false;
  try {
    indexText = readIndexFile(root);
  } catch (err) {
    if (!(err instanceof MemctxError)) throw err;
    indexUnreadable = true;
    scan.problems.push({ path: 'MEMORY.md', line: err.line, message: err.message.replace(/^MEMORY\.md: /, ''), hint: err.hint });
  }
  const { readDecodableText } = await import('../store/raw.js');
  const problemTexts: Record<string, string> = {};
  for (const problem of scan.problems) {
    const text = problem.path === 'MEMORY.md' ? undefined : readDecodableText(root, problem.path);
    if (text !== undefined) problemTexts[problem.path] = text;
  }
  const wantsRepo = activeRules(config).some(({ rule }) => rule.id === 'content/broken-reference' || rule.id === 'index/dangling-link');
  const listing = wantsRepo ? listRepoFiles(setup.repo, ctx.io.env) : undefined;
  const result = await runLint({
    files: scan.files,
    problems: scan.problems,
    indexText,
    indexUnreadable,
    config,
    repoFiles: listing?.files,
    repoIgnoredDirs: listing?.ignoredDirs,
    memoryPrefix: setup.memoryPrefix,
    memoryPaths: listDirFiles(root),
    problemTexts,
    now: ctx.io.now(),
    tokens: async () => (await import('../tokens/index.js')).loadTokenCounter(),
  });
  return { result, files };
}

/** Apply the safe fixes under the memory lock; returns what changed, and what could not be, in words. */
async function applyFixes(root: string, result: LintResult): Promise<{ changes: string[]; skipped: string[] }> {
  const fixes = result.findings.filter((f) => f.fix);
  if (fixes.length === 0) return { changes: [], skipped: [] };
  const { withMemoryLock } = await import('../store/write.js');
  const { setMissingDate } = await import('../store/fix.js');
  const { rebuildIndex } = await import('./reindex.js');
  return withMemoryLock(root, async () => {
    const changes: string[] = [];
    const skipped: string[] = [];
    for (const f of fixes) {
      if (f.fix?.type !== 'set-date') continue;
      const why = await setMissingDate(root, f.file, f.fix.key, f.fix.value);
      if (why === undefined) changes.push(`${f.file}: set ${f.fix.key} to ${f.fix.value}`);
      else skipped.push(`${f.file}: not fixed: ${why}`);
    }
    if (fixes.some((f) => f.fix?.type === 'rebuild-index')) {
      const rebuilt = await rebuildIndex(root);
      if (rebuilt.changed) changes.push(`MEMORY.md: rebuilt (${rebuilt.files} files)`);
    }
    return { changes, skipped };
  });
}

function onlyErrors(result: LintResult): LintResult {
  const findings = result.findings.filter((f) => f.severity === 'error');
  return { ...result, findings, warningCount: 0, fixableWarningCount: 0 };
}

async function runLintCommand(ctx: Context, flags: LintFlags): Promise<number> {
  const format = flags.format ?? (ctx.ui.json ? 'json' : 'stylish');
  if (!FORMATS.includes(format)) throw new MemctxError(`unknown --format "${format}"; use one of ${FORMATS.join(', ')}`, { exitCode: EXIT_USAGE });
  const maxWarnings = parseMaxWarnings(flags.maxWarnings);
  const { loadLintSetup } = await import('./lint-setup.js');
  const setup = loadLintSetup(ctx);
  let { result, files } = await lintOnce(ctx, setup);
  const machine = format !== 'stylish';
  if (flags.fix) {
    const { changes, skipped } = await applyFixes(setup.root, result);
    for (const why of skipped) ctx.ui.warn(why);
    for (const change of changes) {
      if (!machine) ctx.ui.info(`fixed: ${change}`);
      else if (!ctx.ui.quiet) ctx.io.stderr.write(`fixed: ${change}\n`);
    }
    if (changes.length) ({ result, files } = await lintOnce(ctx, setup));
    else if (!machine) ctx.ui.info('nothing to fix');
  }
  const { join } = await import('node:path');
  const { relativeInside } = await import('../store/repo.js');
  const { displayPath } = await import('./display.js');
  const { FORMATTERS } = await import('../lint/formatters/index.js');
  const { RULES } = await import('../lint/rules/index.js');
  const { VERSION } = await import('../version.js');
  const abs = (file: string) => join(setup.root, file);
  const shown = ctx.ui.quiet ? onlyErrors(result) : result;
  const text = FORMATTERS[format](shown, {
    displayPath: (file) => displayPath(ctx.io.cwd, abs(file)),
    absolutePath: abs,
    repoPath: (file) => relativeInside(setup.repo.root, abs(file)),
    chalk: machine ? new (await import('chalk')).Chalk({ level: 0 }) : ctx.ui.chalk,
    rules: RULES,
    config: setup.config,
    version: VERSION,
  });
  ctx.ui.out(text);
  if (!machine && result.findings.length === 0) ctx.ui.info(`✔ no problems in ${files} memory file${files === 1 ? '' : 's'}`);
  if (result.errorCount > 0) return EXIT_PROBLEMS;
  if (maxWarnings !== undefined && result.warningCount > maxWarnings) {
    ctx.io.stderr.write(`memctx lint: ${result.warningCount} warnings, more than --max-warnings ${maxWarnings}\n`);
    return EXIT_PROBLEMS;
  }
  return EXIT_OK;
}
