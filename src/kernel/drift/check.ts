/** Drift for a set of memories: anchors from the repository listing, history from git (a few calls for all), attribution in memory. */
import { memoryAnchors, textMentions, type TextMentions } from './anchors.js';
import type { LintMemo, RepoView } from '../lint/types.js';
import { realpathSync } from 'node:fs';
import { dirname } from 'node:path';
import { attributeDrift, describeDrift, type Drift, type DriftInput } from './drift.js';
import { repoHas, repoView } from '../lint/repo.js';
import { isSessionFile } from '../memindex/groups.js';
import { git, splitNul, type Env } from '../sources/git.js';
import { historyLater, historySince, type History, type LogCache } from '../sources/history.js';
import { findRepository, listRepoFiles, type RepoListing } from '../sources/repo.js';
import { parseMemoryText } from '../store/parse.js';
import { relativeInside } from '../store/paths.js';
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

/** Anchors that are gone: the commits that deleted them are asked again with renames detected (a move, not a deletion). */
const goneAnchors = (repo: RepoView, inputs: readonly DriftInput[]) => new Set(inputs.flatMap((i) => i.anchors.paths).filter((path) => !repoHas(repo, path)));

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
  const history = historySince(listing.root, inputs.map((i) => i.verified), env, cache, goneAnchors(repo, inputs));
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
 * memoryDrift with the range's `git log`, when it is not kept, running while the caller goes on (lint
 * runs its other rules meanwhile): the same drift, sooner.
 */
export function memoryDriftLater(files: readonly MemoryFile[], listing: RepoListing, memoryPrefix: string | undefined, env: Env, memo?: LintMemo, cache?: LogCache): PendingDrift {
  const { repo, inputs, outside } = driftInputs(files, listing, memoryPrefix, memo);
  if (inputs.length === 0 || !listing.git) return { drift: Promise.resolve(new Map<string, Drift>()), outside, stop: async () => undefined };
  const pending = historyLater(listing.root, inputs.map((i) => i.verified), env, cache);
  const drift = pending.finish(goneAnchors(repo, inputs)).then((history) => driftFrom(history, repo, inputs));
  // awaited by the rule; a run that ends before it must not leave an unhandled rejection
  drift.catch(() => undefined);
  return { drift, outside, stop: () => pending.stop() };
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
  const repo = findRepository(root, dirname(root), env);
  if (!repo.git) return out;
  let found: string;
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
  return memoryDrift(files, listRepoFiles(repo, env), relativeInside(realpathSync(repo.root), realpathSync(root)), env, undefined, cache).drift;
}
