/** lint's use case: find the setup, run the rules, apply inline disables and a file selection, fix. */
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { MemctxError } from '../../kernel/errors.js';
import type { LintSetup } from '../../kernel/lint/setup.js';
import { listDirFiles, listRepoFiles, type RepoListing } from '../../kernel/sources/repo.js';
import { relativeInside } from '../../kernel/store/paths.js';
import { INDEX_FILE } from '../../kernel/store/layout.js';
import type { Finding, LintMemo, LintResult } from '../../kernel/lint/types.js';
import { scanForLint } from './cache.js';
import { readIndexFile } from '../../kernel/memindex/file.js';
import { readDecodableText } from '../../kernel/store/raw.js';
import { runLint, activeRules } from '../../kernel/lint/runner.js';
import { lastCommitTimes } from '../../kernel/sources/git.js';
import { withMemoryLock } from '../../kernel/store/write.js';
import { setMissingDate } from './fix.js';
import { rebuildIndex } from '../../kernel/memindex/reindex.js';
import { earlyDriftLog, memoryDriftLater, type PendingDrift } from '../../kernel/drift/check.js';
import type { EarlyLog } from '../../kernel/sources/history.js';
import { historyCache, type HistoryCache } from '../../kernel/state/history-cache.js';
import type { MemoryFile } from '../../kernel/store/types.js';

export interface LintDeps {
  cwd: string;
  env: Record<string, string | undefined>;
  now: () => Date;
}

/** Rule ids a file turns off with `<!-- memctx-disable rule-id … -->`; 'all' for a bare comment. */
function disabledRules(text: string): Set<string> | 'all' | undefined {
  if (!text.includes('<!--')) return undefined;
  let ids: Set<string> | undefined;
  for (const match of text.matchAll(/<!--\s*memctx-disable\b([^>]*?)-->/g)) {
    const listed = match[1].split(/[\s,]+/).filter(Boolean);
    if (listed.length === 0) return 'all';
    ids ??= new Set();
    for (const id of listed) ids.add(id);
  }
  return ids;
}

function recount(result: LintResult, findings: Finding[], checked = result.checked): LintResult {
  const count = (severity: string, fixable: boolean) => findings.filter((f) => f.severity === severity && (!fixable || f.fix)).length;
  return { findings, checked, errorCount: count('error', false), warningCount: count('warning', false), fixableErrorCount: count('error', true), fixableWarningCount: count('warning', true) };
}

/**
 * The repository listing (for the path rules) and the memories' drift from git, when a rule wants them:
 * drift's `git log` runs while lint goes on (the caller stops it on every path).
 */
function repoFacts(setup: LintSetup, files: MemoryFile[], env: LintDeps['env'], memo?: LintMemo, cache?: HistoryCache, early?: EarlyLog): { listing?: RepoListing; drift?: PendingDrift } {
  const active = new Set(activeRules(setup.config).map(({ rule }) => rule.id));
  const wantsDrift = active.has('content/drifted');
  if (!wantsDrift && !active.has('content/broken-reference') && !active.has('index/dangling-link')) return {};
  const listing = listRepoFiles(setup.repo, env);
  return { listing, drift: wantsDrift ? memoryDriftLater(files, listing, setup.memoryPrefix, env, memo, cache, early) : undefined };
}

/** Drift's `git log`, started before the scan when the rule is on and the memory folder is in git (memoryDriftLater checks its range). */
function earlyLog(setup: LintSetup, env: LintDeps['env'], cache: HistoryCache): EarlyLog | undefined {
  const wanted = setup.repo.git && activeRules(setup.config).some(({ rule }) => rule.id === 'content/drifted');
  return wanted ? earlyDriftLog(setup.root, env, cache) : undefined;
}

interface LintRun {
  result: LintResult;
  /** Memory files looked at (the whole directory, so index and duplicate rules stay right). */
  files: number;
}

async function lintOnce(setup: LintSetup, deps: LintDeps, selection?: Set<string>, started?: StartedDrift): Promise<LintRun> {
  const { root } = setup;
  const history = historyCache(root);
  const early = started ? started.log : earlyLog(setup, deps.env, history);
  let drift: PendingDrift | undefined;
  try {
    const scan = scanForLint(root, deps.now().getTime());
    const files = scan.files.length + scan.problems.length;
    const facts = repoFacts(setup, scan.files, deps.env, scan.memo, history, early);
    drift = facts.drift;
    return await lintScanned(setup, deps, { scan, files, listing: facts.listing, drift, history }, selection);
  } finally {
    await drift?.stop();
    await early?.job.stop();
  }
}

interface Scanned {
  scan: ReturnType<typeof scanForLint>;
  files: number;
  listing?: RepoListing;
  drift?: PendingDrift;
  history: HistoryCache;
}

async function lintScanned(setup: LintSetup, deps: LintDeps, { scan, files, listing, drift, history }: Scanned, selection?: Set<string>): Promise<LintRun> {
  const { root, config } = setup;
  // Files with no date of their own get their last commit time (one git log), so --fix never writes a clone's time.
  const undated = scan.files.filter((f) => f.hasFrontmatter && f.updated === undefined);
  if (undated.length > 0) {
    const times = lastCommitTimes(root, undated.map((f) => f.path), deps.env);
    for (const f of undated) if (times.has(f.path)) f.committedMs = times.get(f.path);
  }
  let indexText: string | undefined;
  let indexUnreadable = false;
  try {
    indexText = readIndexFile(root);
  } catch (err) {
    if (!(err instanceof MemctxError)) throw err;
    indexUnreadable = true;
    scan.problems.push({ path: INDEX_FILE, line: err.line, message: err.message.replace(/^MEMORY\.md: /, ''), hint: err.hint });
  }
  const problemTexts: Record<string, string> = {};
  for (const problem of scan.problems) {
    const text = problem.path === INDEX_FILE ? undefined : readDecodableText(root, problem.path);
    if (text !== undefined) problemTexts[problem.path] = text;
  }
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
    now: deps.now(),
    memo: scan.memo,
    drift: drift?.drift,
    outsideAnchors: drift?.outside,
    tokens: async () => (await import('../../kernel/tokens/index.js')).loadTokenCounter(),
  });
  await scan.save();
  await history.save();
  // Disable comments by file; a problem's text stands for its path, MEMORY.md's for the index. Only texts with one are kept.
  const disabled = new Map<string, Set<string> | 'all'>();
  const note = (path: string, text: string) => {
    const off = disabledRules(text);
    if (off) disabled.set(path, off);
    else disabled.delete(path);
  };
  for (const f of scan.files) note(f.path, f.body);
  for (const [path, text] of Object.entries(problemTexts)) note(path, text);
  if (indexText !== undefined) note(INDEX_FILE, indexText);
  const kept = result.findings.filter((f) => {
    const off = disabled.get(f.file);
    if (off === 'all' || off?.has(f.ruleId)) return false;
    return selection === undefined || selection.has(f.file);
  });
  const checked = selection === undefined ? result.checked : result.checked.filter((p) => selection.has(p));
  return { result: recount(result, kept, checked), files };
}

/** Apply the safe fixes under the memory lock; returns what changed, and what could not be, in words. */
async function applyFixes(root: string, result: LintResult): Promise<{ changes: string[]; skipped: string[] }> {
  const fixes = result.findings.filter((f) => f.fix);
  if (fixes.length === 0) return { changes: [], skipped: [] };
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
      const rebuilt = await rebuildIndex(root, {}, (message) => skipped.push(message));
      if (rebuilt.changed) changes.push(`MEMORY.md: rebuilt (${rebuilt.files} files)`);
    }
    return { changes, skipped };
  });
}

export interface LintOptions {
  fix?: boolean;
  /** Report only these files (paths relative to cwd, as lint-staged or pre-commit pass them); others in the memory directory still inform the index and duplicate rules. */
  files?: string[];
  /** Drift's `git log` as the caller started it before lint loaded (its range is checked); without, lint starts its own. */
  drift?: StartedDrift;
}

/** An early drift log the caller tried to start: `log` is undefined when there was none to start (no verified memory, a kept log). */
export interface StartedDrift {
  log?: EarlyLog;
}

export interface LintOutcome extends LintRun {
  /** Fixes applied, in words. */
  changes: string[];
  /** Fixes that could not be made, and why. */
  skipped: string[];
  /** Given files that are not in the memory directory (ignored). */
  outside: string[];
}

/** Map the given files onto the memory directory; those outside it are set aside. */
function selectFiles(root: string, files: string[], cwd: string): { selection: Set<string>; outside: string[] } {
  const selection = new Set<string>();
  const outside: string[] = [];
  for (const file of files) {
    let abs = resolve(cwd, file);
    try {
      abs = realpathSync(abs);
    } catch {
      // a deleted file (lint-staged passes those too) still names its path
    }
    const rel = relativeInside(root, abs);
    if (rel === undefined || rel === '' || rel.split('/').some((p) => p.startsWith('.'))) outside.push(file);
    else selection.add(rel);
  }
  return { selection, outside };
}

export async function lintMemory(setup: LintSetup, options: LintOptions, deps: LintDeps): Promise<LintOutcome> {
  const picked = options.files?.length ? selectFiles(setup.root, options.files, deps.cwd) : undefined;
  let run = await lintOnce(setup, deps, picked?.selection, options.drift);
  let fixed = { changes: [] as string[], skipped: [] as string[] };
  if (options.fix) {
    fixed = await applyFixes(setup.root, run.result);
    if (fixed.changes.length) run = await lintOnce(setup, deps, picked?.selection);
  }
  return { ...run, ...fixed, outside: picked?.outside ?? [] };
}
