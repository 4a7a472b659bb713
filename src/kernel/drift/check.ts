/** Drift for a set of memories: anchors from the repository listing, history from git (a few calls for all), attribution in memory. */
import { createHash } from 'node:crypto';
import { memoryAnchors, textMentions, type TextMentions } from './anchors.js';
import type { LintMemo, RepoView } from '../lint/types.js';
import { realpathSync } from 'node:fs';
import { dirname } from 'node:path';
import { attributeDrift, describeDrift, type Drift, type DriftInput } from './drift.js';
import { repoHas, repoView } from '../lint/repo.js';
import { isSessionFile } from '../memindex/groups.js';
import { git, outsideAnyRepository, splitNul, type Env } from '../sources/git.js';
import { historyLater, historyRange, historySince, startLogEarly, type EarlyLog, type History, type HistoryRange, type LogCache } from '../sources/history.js';
import { findRepository, listRepoFiles, type RepoListing } from '../sources/repo.js';
import { parseMemoryText } from '../store/parse.js';
import { relativeInside } from '../store/paths.js';
import { isRecord } from '../values.js';
import type { MemoryFile } from '../store/types.js';

export interface MemoryDrift {
  /** Memories that drifted, or whose drift is unknown; memories that hold are absent. */
  drift: Map<string, Drift>;
  /** `paths:` entries outside the repository, by memory. */
  outside: Map<string, string[]>;
}

/** A file's text mentions, kept in lint's per-file memo while the file is unchanged. */
function keptMentions(file: MemoryFile, memo: LintMemo | undefined): TextMentions | undefined {
  if (!memo || file.data.paths !== undefined) return undefined;
  const kept = memo.get(file.path, 'drift-mentions') as TextMentions | undefined;
  if (kept && Array.isArray(kept.mentions) && Array.isArray(kept.links)) return kept;
  const named = textMentions(file);
  memo.set(file.path, 'drift-mentions', named);
  return named;
}

/** The `verified` commit a memory records, or undefined. */
function verifiedOf(file: Pick<MemoryFile, 'data'>): string | undefined {
  const value = file.data.verified;
  return typeof value === 'string' && value.trim() !== '' ? value.trim().toLowerCase() : undefined;
}

/** The anchored, verified memories (session summaries are records, not claims), and `paths:` entries outside the repository. */
function driftInputs(files: readonly MemoryFile[], listing: RepoListing, memoryPrefix: string | undefined, memo?: LintMemo): { repo: RepoView; inputs: DriftInput[]; outside: Map<string, string[]> } {
  const repo = repoView(listing.files, listing.ignoredDirs, memoryPrefix);
  const inputs: DriftInput[] = [];
  const outside = new Map<string, string[]>();
  for (const file of files) {
    if (isSessionFile(file)) continue;
    const anchors = memoryAnchors(file, repo, keptMentions(file, memo));
    if (anchors.outside.length) outside.set(file.path, anchors.outside);
    const verified = verifiedOf(file);
    if (verified !== undefined && anchors.paths.length + anchors.globs.length > 0) inputs.push({ path: file.path, anchors, verified });
  }
  return { repo, inputs, outside };
}

/** Each memory's drift from the history git gave; when git could not tell (a shallow clone), each one's drift is unknown. */
function driftFrom(history: History, repo: RepoView, inputs: readonly DriftInput[]): Map<string, Drift> {
  if (history.known) return attributeDrift(inputs, history, (path) => repoHas(repo, path));
  return new Map(inputs.map((input) => [input.path, { state: 'unknown', reason: history.reason }]));
}

/**
 * Drift of every anchored, verified memory (session summaries are records, not claims). Outside git
 * nothing is said; when git cannot tell (a shallow clone), each such memory's drift is unknown.
 */
export function memoryDrift(files: readonly MemoryFile[], listing: RepoListing, memoryPrefix: string | undefined, env: Env, memo?: LintMemo, cache?: LogCache): MemoryDrift {
  const { repo, inputs, outside } = driftInputs(files, listing, memoryPrefix, memo);
  if (inputs.length === 0 || !listing.git) return { drift: new Map(), outside };
  const history = historySince(listing.root, inputs.map((i) => i.verified), env, cache);
  return { drift: driftFrom(history, repo, inputs), outside };
}

/** memoryDrift whose drift comes later: `stop()` must follow on every path (it ends git if the drift was never awaited). */
export interface PendingDrift {
  /** Resolves (never rejects) to memoryDrift's drift. */
  drift: Promise<Map<string, Drift>>;
  outside: Map<string, string[]>;
  stop(): Promise<void>;
}

/**
 * Where an answer is kept: a digest of everything attributeDrift reads (the range, the verified commits
 * git lacks, each memory's anchors and which of its paths exist now). A log between two commits never
 * changes, so the same digest is the same drift.
 */
function answerKey(range: Extract<HistoryRange, { known: true }>, repo: RepoView, inputs: readonly DriftInput[]): string {
  const hash = createHash('sha1').update(`${range.head} ${range.base ?? ''} ${range.shallow} ${[...range.missing].sort().join(' ')}\0`);
  for (const { path, verified, anchors } of inputs) {
    hash.update(`${path}\0${verified}\0${anchors.globs.join('\0')}\0${anchors.paths.map((p) => `${repoHas(repo, p) ? '+' : '-'}${p}`).join('\0')}\x01`);
  }
  return `drift ${hash.digest('hex')}`;
}

const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');

/** A kept drift entry as drift.ts made it, or false (another build's, or corrupt: the answer is asked again). */
function isDrift(d: Partial<Record<string, unknown>>): boolean {
  if (d.state === 'unknown') return typeof d.reason === 'string';
  const latest = d.latest as Partial<Record<string, unknown>> | null | undefined;
  return d.state === 'drifted' && typeof d.verified === 'string' && isStrings(d.paths) && typeof d.commits === 'number' && typeof latest?.hash === 'string' && typeof latest.subject === 'string'
    && Array.isArray(d.gone) && d.gone.every((g: { path?: unknown; movedTo?: unknown }) => typeof g?.path === 'string' && (g.movedTo === undefined || typeof g.movedTo === 'string')) && typeof d.allGone === 'boolean';
}

/** The answer kept under `key`, or undefined. */
function keptAnswer(cache: LogCache | undefined, key: string): Map<string, Drift> | undefined {
  const text = cache?.get(key);
  if (text === undefined) return undefined;
  try {
    const entries = JSON.parse(text) as unknown;
    const valid = (e: unknown) => Array.isArray(e) && typeof e[0] === 'string' && isRecord(e[1]) && isDrift(e[1]);
    if (Array.isArray(entries) && entries.every(valid)) return new Map(entries as [string, Drift][]);
  } catch {
    // a corrupt answer is asked again
  }
  return undefined;
}

/**
 * memoryDrift with the range's `git log`, when it is not kept, running while the caller goes on (lint
 * runs its other rules meanwhile): the same drift, sooner. The answer is kept in the cache too: a run
 * with the same range and anchors reads it instead of the log.
 */
export function memoryDriftLater(files: readonly MemoryFile[], listing: RepoListing, memoryPrefix: string | undefined, env: Env, memo?: LintMemo, cache?: LogCache, early?: EarlyLog): PendingDrift {
  const { repo, inputs, outside } = driftInputs(files, listing, memoryPrefix, memo);
  const none = async () => early?.job.stop();
  if (inputs.length === 0 || !listing.git) return { drift: Promise.resolve(new Map<string, Drift>()), outside, stop: none };
  const verified = inputs.map((i) => i.verified);
  const range = early && early.root === listing.root && sameSet(early.guessed, verified) ? early.range : historyRange(listing.root, verified, env);
  const key = range.known && cache ? answerKey(range, repo, inputs) : undefined;
  const kept = key === undefined ? undefined : keptAnswer(cache, key);
  if (kept) return { drift: Promise.resolve(kept), outside, stop: none };
  const pending = historyLater(listing.root, verified, env, cache, range, early);
  const drift = pending.finish().then((history) => {
    const found = driftFrom(history, repo, inputs);
    if (key !== undefined && history.known) cache?.set(key, JSON.stringify([...found]));
    return found;
  });
  // awaited by the rule; a run that ends before it must not leave an unhandled rejection
  drift.catch(() => undefined);
  return { drift, outside, stop: () => pending.stop() };
}

/** True when `list` holds exactly the members of `set` (historyRange's answer depends on its commits as a set). */
function sameSet(set: ReadonlySet<string>, list: readonly string[]): boolean {
  const seen = new Set(list);
  return seen.size === set.size && [...seen].every((v) => set.has(v));
}

/**
 * The drift log started before the memory directory is scanned: its range guessed from the `verified:`
 * lines one `git grep` finds under `root` (memoryDriftLater checks the guess against the exact range).
 * Undefined outside git, with nothing verified, or when a log is kept.
 */
export function earlyDriftLog(root: string, env: Env, cache?: LogCache): EarlyLog | undefined {
  let found: string;
  try {
    found = git(['grep', '-h', '-I', '--untracked', '-e', '^verified: *[0-9a-f]', '--', '.'], root, { ...env, GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' });
  } catch {
    return undefined;
  }
  const guessed = new Set(found.split('\n').map((line) => line.slice(line.indexOf(':') + 1).trim().toLowerCase()).filter(Boolean));
  return guessed.size > 0 ? startLogEarly(root, [...guessed], env, cache) : undefined;
}

/**
 * Pack's view of drift: memory paths → one line saying what changed and how to check, and the drift itself (for the SessionStart block). Only files with
 * a `verified:` line are read (found by one `git grep`); outside git, or when nothing is verified, no
 * listing or log is asked for. Unknown drift (a shallow clone) is said too: never called fresh.
 */
export function packDriftDetails(root: string, paths: readonly string[], textOf: (path: string) => string, env: Env, cache?: LogCache): { lines: Map<string, string>; drift: Map<string, Drift> } {
  const lines = new Map<string, string>();
  const found = driftOfVerified(root, paths, textOf, env, cache);
  for (const [path, d] of found) {
    const check = `check the code before acting on it, then \`memctx verify ${path}\``;
    lines.set(path, d.state === 'unknown' ? `drift unknown: ${d.reason}; ${check}` : `drifted: ${describeDrift(d)}; ${check}`);
  }
  return { lines, drift: found };
}

function driftOfVerified(root: string, paths: readonly string[], textOf: (path: string) => string, env: Env, cache?: LogCache): Map<string, Drift> {
  const out = new Map<string, Drift>();
  if (outsideAnyRepository(root, env)) return out;
  let found: string;
  // git grep fails where git finds no work tree: the repository is asked for only when a memory is verified
  try {
    found = git(['grep', '-l', '-z', '-I', '--untracked', '-e', '^verified: *[0-9a-f]', '--', '.'], root, { ...env, GIT_OPTIONAL_LOCKS: '0' });
  } catch {
    return out;
  }
  const wanted = new Set(paths);
  const files: MemoryFile[] = [];
  for (const path of splitNul(found)) {
    if (!wanted.has(path)) continue;
    const text = textOf(path);
    try {
      files.push(parseMemoryText(path, text, { mtimeMs: 0, size: text.length }));
    } catch {
      // an unparseable file has no frontmatter to read; lint reports it
    }
  }
  if (files.length === 0) return out;
  const repo = findRepository(root, dirname(root), env);
  if (!repo.git) return out;
  return memoryDrift(files, listRepoFiles(repo, env), relativeInside(realpathSync(repo.root), realpathSync(root)), env, undefined, cache).drift;
}
