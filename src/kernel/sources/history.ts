/** What git says about the commits since memories were verified: drift's only git calls (at most three for all memories). */
import { resolve } from 'node:path';
import { git, gitTopLevel, GitError, outsideAnyRepository, type Env } from './git.js';
import { gitInBackground, type GitJob } from './git-background.js';
import { MemctxError } from '../errors.js';

const COMMIT = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
const TIMEOUT_MS = 20_000;
/** Verified commits asked for on rev-parse's command line with the repository's facts (more: one rev-list). */
const MAX_ASKED = 1000;
/** New commits on top of a kept log's HEAD that are asked of git alone (more: the whole range again). */
const MAX_ADDED = 1000;

/** One file a commit changed (rename: `from` is the old path). */
interface CommitChange {
  status: string;
  path: string;
  from?: string;
}

export interface HistoryCommit {
  hash: string;
  parents: string[];
  subject: string;
  changes: CommitChange[];
}

/** Where a log is kept between runs (kernel/state/history-cache.ts). */
export interface LogCache {
  get(range: string): string | undefined;
  set(range: string, log: string): void;
  /** The logs kept from the last run, by key, read without keeping them for the next. */
  kept?(): ReadonlyMap<string, string>;
  /** A file for git to write a log to (a descriptor open for reading and writing, with no name), if one can be had. */
  scratch?(): number | undefined;
}

export type History =
  | { known: true; root: string; head: string; commits: HistoryCommit[]; missing: Set<string>; files?: Map<string, number[]> }
  | { known: false; reason: string };

// Untranslated messages, no optional locks; output fully buffered (on a pipe git flushes a log once per commit, a read each).
function quiet(env: Env): Env {
  return { ...env, GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C', GIT_FLUSH: '0' };
}

/** The commit HEAD names in the repository holding dir, or undefined (not in git, no commit yet, no git). */
export function headCommit(dir: string, env: Env): string | undefined {
  if (outsideAnyRepository(dir, env)) return undefined;
  try {
    const out = git(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], dir, quiet(env), { timeoutMs: TIMEOUT_MS }).trim();
    return COMMIT.test(out) ? out : undefined;
  } catch {
    return undefined;
  }
}

/** Where one commit's record of a log lies: its hash and parents after `start`, its subject (after `sep`, -1 if none) up to `headEnd`, its files up to `end`. */
interface CommitRecord {
  start: number;
  sep: number;
  headEnd: number;
  end: number;
}

/** Each commit record of `git log -z --name-status --format=%x01%H %P%x02%s`, newest first (one pass, no regular expressions). */
function eachCommit(out: string, visit: (record: CommitRecord) => void): void {
  for (let start = out.indexOf('\x01'); start >= 0;) {
    const next = out.indexOf('\x01', start + 1);
    const end = next < 0 ? out.length : next;
    if (end > start + 1) {
      const nul = out.indexOf('\0', start);
      const headEnd = nul < 0 || nul > end ? end : nul;
      const found = out.indexOf('\x02', start);
      const sep = found >= 0 && found < headEnd ? found : -1;
      visit({ start, sep, headEnd, end });
    }
    start = next;
  }
}

/** A commit record's subject: the text after `sep` up to `headEnd`, without its trailing newlines ('' when there is no `sep`). */
const subjectOf = (out: string, sep: number, headEnd: number): string => (sep < 0 ? '' : out.slice(sep + 1, headEnd).replace(/\n+$/, ''));

/** A commit record's hash and parents' hashes. */
const idsOf = (out: string, { start, sep, headEnd }: CommitRecord): string[] => out.slice(start + 1, sep >= 0 ? sep : headEnd).trim().split(' ');

/** A commit record's hash (idsOf's first) without splitting the parents off: up to the first space, else its subject or files. */
function hashOf(out: string, record: CommitRecord): string {
  const { start, sep, headEnd } = record;
  const stop = sep >= 0 ? sep : headEnd;
  const space = out.indexOf(' ', start + 1);
  // (text that starts with white space is idsOf's to trim)
  return out.charCodeAt(start + 1) > 32 && space > start + 1 && space < stop ? out.slice(start + 1, space) : idsOf(out, record)[0];
}

/** A log's commits with their files. */
function parseHistory(out: string): HistoryCommit[] {
  const commits: HistoryCommit[] = [];
  eachCommit(out, (record) => {
    const { sep, headEnd, end } = record;
    const ids = idsOf(out, record);
    commits.push({ hash: ids[0], parents: ids.slice(1).filter(Boolean), subject: subjectOf(out, sep, headEnd), changes: headEnd < end ? parseChanges(out, headEnd + 1, end) : [] });
  });
  return commits;
}

/** A commit of a long log whose hash, parents, subject and files are read from the log's text when first asked for (most never are), once. */
class LoggedCommit implements HistoryCommit {
  readonly #log: string;
  readonly #record: CommitRecord;
  #hash: string | undefined;
  #parents: string[] | undefined;
  #subject: string | undefined;
  #changes: CommitChange[] | undefined;

  constructor(log: string, record: CommitRecord) {
    this.#log = log;
    this.#record = record;
  }

  get hash(): string {
    return (this.#hash ??= hashOf(this.#log, this.#record));
  }

  get parents(): string[] {
    return (this.#parents ??= idsOf(this.#log, this.#record).slice(1).filter(Boolean));
  }

  get subject(): string {
    return (this.#subject ??= subjectOf(this.#log, this.#record.sep, this.#record.headEnd));
  }

  get changes(): CommitChange[] {
    const { headEnd, end } = this.#record;
    return (this.#changes ??= headEnd < end ? parseChanges(this.#log, headEnd + 1, end) : []);
  }
}

/** A long log read in one pass: its commits and each changed path's commits. */
interface ReadLog {
  commits: HistoryCommit[];
  /** Each changed path (new and old names) → the positions of the commits that changed it, ascending. */
  files: Map<string, number[]>;
}

/** Adds position `at` to a path's list in `files` (ascending; a commit once). */
export function noteFile(files: Map<string, number[]>, path: string, at: number): void {
  const list = files.get(path);
  if (list === undefined) files.set(path, [at]);
  else if (list[list.length - 1] !== at) list.push(at);
}

/**
 * parseHistory's reading of a long log without an object per change: each path goes straight into the
 * index of the commits that changed it; a commit's subject and files are read again only when asked for.
 * Given `into`, the log's commits are added after those read before (a log read in pieces of whole records).
 */
function readLog(out: string, into: ReadLog = { commits: [], files: new Map() }): ReadLog {
  const { commits, files } = into;
  eachCommit(out, (record) => {
    const at = commits.length;
    commits.push(new LoggedCommit(out, record));
    if (record.headEnd < record.end) indexChanges(out, record.headEnd + 1, record.end, files, at);
  });
  return into;
}

/** The end of the NUL-terminated part of `out` starting at `at`, at most `end`. */
function partEnd(out: string, at: number, end: number): number {
  const nul = out.indexOf('\0', at);
  return nul < 0 || nul > end ? end : nul;
}

/** parseChanges' entries between from and end noted in `files` at position `at`. */
function indexChanges(out: string, from: number, end: number, files: Map<string, number[]>, at: number): void {
  for (let part = from; part <= end;) {
    const stop = partEnd(out, part, end);
    const first = part < stop && out.charCodeAt(part) === 10 ? part + 1 : part;
    const c = first < stop ? out.charCodeAt(first) : NaN;
    part = stop + 1;
    // a status needs a path after it (parseChanges' `i + 1 < parts.length`)
    if (!(c >= 65 && c <= 90) || part > end) continue;
    const pathEnd = partEnd(out, part, end);
    const path = out.slice(part, pathEnd);
    noteFile(files, path, at);
    part = pathEnd + 1;
    if (c === 82 || c === 67) {
      if (part > end) continue;
      const newEnd = partEnd(out, part, end);
      noteFile(files, out.slice(part, newEnd), at);
      part = newEnd + 1;
    }
  }
}

/** The NUL-separated `STATUS path [new path]` entries of one commit, between from and end. */
function parseChanges(out: string, from: number, end: number): CommitChange[] {
  const parts: string[] = [];
  for (let at = from; at <= end;) {
    const nul = out.indexOf('\0', at);
    const stop = nul < 0 || nul > end ? end : nul;
    parts.push(out.slice(at, stop));
    at = stop + 1;
  }
  const changes: CommitChange[] = [];
  for (let i = 0; i + 1 < parts.length; i++) {
    const code = parts[i].charCodeAt(0) === 10 ? parts[i].slice(1) : parts[i];
    const c = code.charCodeAt(0);
    if (!(c >= 65 && c <= 90)) continue;
    if (c === 82 || c === 67) {
      changes.push({ status: code[0], from: parts[i + 1], path: parts[i + 2] });
      i += 2;
    } else {
      changes.push({ status: code[0], path: parts[i + 1] });
      i += 1;
    }
  }
  return changes;
}

function reasonOf(err: unknown): string {
  if (err instanceof GitError) return err.stderr.trim().split('\n')[0] || err.message;
  return err instanceof MemctxError ? err.message : String(err);
}

/** The byte each commit's record starts with (LOG_FORMAT's %x01). */
const RECORD_START = 0x01;
const LOG_FORMAT = ['-z', '--name-status', '--no-color', '--format=%x01%H %P%x02%s'];

/** What a run asks git for: the range (HEAD and the base under every present verified commit), and which verified commits git lacks. */
export type HistoryRange = Range;
type Range =
  | { known: false; reason: string }
  | { known: true; root: string; head: string; missing: Set<string>; shallow: boolean; base?: string; run: (args: string[]) => string };

/**
 * The range since the memories were verified: the common ancestor of every `verified` commit git has
 * (`base`; none when it has none of them), HEAD, and which verified commits git does not have. A
 * shallow clone whose history misses a verified commit, or no git: drift is unknown.
 */
export function historyRange(dir: string, verified: readonly string[], env: Env): Range {
  const wanted = [...new Set(verified.filter((v) => COMMIT.test(v)))];
  // One git call for the top, shallowness, HEAD and the verified commits (when git has them all); when it
  // fails, the same without them, then the two that say which part failed.
  const facts = (wanted.length > 0 && wanted.length <= MAX_ASKED && topShallowHead(dir, env, wanted)) || topShallowHead(dir, env, []);
  let root: string;
  try {
    root = facts?.root ?? gitTopLevel(dir, env);
  } catch (err) {
    return { known: false, reason: `not in a git repository (${reasonOf(err)})` };
  }
  const run = (args: string[]) => git(args, root, quiet(env), { timeoutMs: TIMEOUT_MS });
  try {
    const [shallow, head] = facts ? [facts.shallow, facts.head] : run(['rev-parse', '--is-shallow-repository', 'HEAD']).trim().split('\n');
    const present = facts?.present ?? new Set(wanted.length ? run(['rev-list', '--no-walk', '--ignore-missing', ...wanted]).split('\n').filter(Boolean) : []);
    const missing = new Set(verified.filter((v) => !present.has(v)));
    if (missing.size > 0 && shallow === 'true') return { known: false, reason: 'this is a shallow clone, so the commits since the memories were verified are not all here (`git fetch --unshallow` brings them)' };
    const base = present.size === 0 ? undefined : present.size === 1 ? [...present][0] : run(['merge-base', '--octopus', ...present]).trim();
    return { known: true, root, head, missing, shallow: shallow === 'true', base, run };
  } catch (err) {
    return { known: false, reason: couldNotTell(err) };
  }
}

const couldNotTell = (err: unknown) => `git could not tell: ${reasonOf(err)}`;

/**
 * The commits reachable from HEAD and not from the common ancestor of every `verified` commit, with
 * their files and renames (a move is told from a deletion), in one `git log`. Plus which verified
 * commits git does not have. A shallow clone whose history misses a verified commit, or no git: drift is unknown.
 */
export function historySince(dir: string, verified: readonly string[], env: Env, cache?: LogCache): History {
  const range = historyRange(dir, verified, env);
  if (!range.known) return range;
  if (range.base === undefined) return { known: true, root: range.root, head: range.head, commits: [], missing: range.missing };
  try {
    // The log between two commits never changes: kept between runs by the caller's cache.
    const log = keptLog(cache, range.head, range.base, range.shallow, range.run) ?? fullLog(cache, range.head, range.base, range.shallow, range.run);
    return withLog(range, log);
  } catch (err) {
    return { known: false, reason: couldNotTell(err) };
  }
}

/** historySince started now and finished later. Both resolve; neither rejects. */
export interface PendingHistory {
  finish(): Promise<History>;
  /** Ends the git call if it still runs (every path that does not finish must stop). */
  stop(): Promise<void>;
}

/**
 * historySince in two steps: the range and a kept log now, and when the log is not kept, the whole
 * range's `git log` started in the background (gitInBackground) so the caller's work overlaps it;
 * `finish` waits for it. The answers are historySince's. `range` is historyRange's, when the caller asked for it first.
 */
export function historyLater(dir: string, verified: readonly string[], env: Env, cache?: LogCache, range = historyRange(dir, verified, env), early?: EarlyLog): PendingHistory {
  // an early log is used only when its range is this one (the log of `head ^base` is the same log); else it is ended
  const settled = (history: History): PendingHistory => ({ finish: async () => history, stop: async () => early?.job.stop() });
  if (!range.known) return settled(range);
  const { head, base, shallow, run } = range;
  if (base === undefined) return settled({ known: true, root: range.root, head, commits: [], missing: range.missing });
  let log: string | undefined;
  let job: GitJob | undefined;
  try {
    log = keptLog(cache, head, base, shallow, run);
    const same = early !== undefined && early.root === range.root && early.head === head && early.base === base;
    if (!same) void early?.job.stop();
    if (log === undefined) job = same ? early.job : fullLogLater(range.root, head, base, env, cache);
  } catch (err) {
    return settled({ known: false, reason: couldNotTell(err) });
  }
  return {
    async finish() {
      try {
        if (log !== undefined) return withLog(range, log);
        // read while git writes it: what is left when git ends is the last piece
        const read: ReadLog = { commits: [], files: new Map() };
        log = await job!.output({ separator: RECORD_START, take: (piece) => readLog(piece, read) });
        cache?.set(rangeKey(head, base, shallow), log);
        return historyOf(range, read);
      } catch (err) {
        return { known: false, reason: couldNotTell(err) };
      }
    },
    stop: async () => {
      await job?.stop();
      await early?.job.stop();
    },
  };
}

/** A range's `git log` started before the exact range is known (historyLater uses it when the range is the same). */
export interface EarlyLog {
  root: string;
  head: string;
  base: string;
  job: GitJob;
  /** The guessed verified commits and historyRange's answer for them: the exact range when the memories' verified commits are these. */
  guessed: ReadonlySet<string>;
  range: HistoryRange;
}

/**
 * The `git log` of the range a guess of the verified commits gives, started now in the background, so
 * it runs while the memories are read; undefined when the guess gives no range or a log is kept for its
 * base (the kept log or answer is used then). A wrong guess costs a second log, never a wrong answer.
 */
export function startLogEarly(dir: string, guessed: readonly string[], env: Env, cache?: LogCache): EarlyLog | undefined {
  const range = historyRange(dir, guessed, env);
  if (!range.known || !range.base) return undefined;
  if (keptForBase(cache, range.base, range.shallow)) return undefined;
  const job = fullLogLater(range.root, range.head, range.base, env, cache);
  return { root: range.root, head: range.head, base: range.base, job, guessed: new Set(guessed), range };
}

/** The history from a range's log. */
function withLog(range: Extract<Range, { known: true }>, log: string): History {
  return historyOf(range, readLog(log));
}

function historyOf(range: Extract<Range, { known: true }>, { commits, files }: ReadLog): History {
  return { known: true, root: range.root, head: range.head, commits, missing: range.missing, files };
}

// `-M`: a log with renames detected (logs kept before were without: another key)
const rangeKey = (head: string, base: string, shallow: boolean) => `${head} ^${base} -M${shallow ? ' shallow' : ''}`;
// A smaller cache of delta bases than git's 96 MB: a long log reads trees only, and reuses memory instead of faulting in new pages (~13% of git's CPU on 10,000 commits).
// Renames detected in the one log, in the background: only commits that add and delete files pay for it (on memctx's own history
// 187 → 498 M instructions of git's, beside lint's work), where asking again for the commits that deleted an anchor came after it, in line.
const fullLogArgs = (head: string, base: string) => ['-c', 'core.deltaBaseCacheLimit=16m', 'log', ...LOG_FORMAT, '-M', head, ...(base ? [`^${base}`] : []), '--'];

/** The whole log of a range, started now beside the caller's work (git writes it to the cache's scratch file), read later. */
function fullLogLater(root: string, head: string, base: string, env: Env, cache: LogCache | undefined): GitJob {
  return gitInBackground(fullLogArgs(head, base), root, quiet(env), { timeoutMs: TIMEOUT_MS, output: cache?.scratch?.() });
}

/** The whole log of `head ^base` from git, then kept. */
function fullLog(cache: LogCache | undefined, head: string, base: string, shallow: boolean, run: (args: string[]) => string): string {
  const log = run(fullLogArgs(head, base));
  cache?.set(rangeKey(head, base, shallow), log);
  return log;
}

/**
 * The log of `head ^base` when it is kept, else the log kept for an older HEAD of the same base with the
 * commits HEAD added on top of it in a line (at most MAX_ADDED, one small `git log`), else undefined.
 * A line of commits on top of the older HEAD comes first in git's order, then the older log as it was.
 */
function keptLog(cache: LogCache | undefined, head: string, base: string, shallow: boolean, run: (args: string[]) => string): string | undefined {
  const range = rangeKey(head, base, shallow);
  const kept = cache?.get(range);
  if (kept !== undefined) return kept;
  const older = keptForBase(cache, base, shallow);
  if (!older || base === '') return undefined;
  const oldHead = older[0].slice(0, older[0].indexOf(' '));
  const added = run(['log', ...LOG_FORMAT, '-M', `--max-count=${MAX_ADDED + 1}`, head, `^${oldHead}`, `^${base}`, '--']);
  if (!inLineOn(parseHistory(added), oldHead)) return undefined;
  cache?.set(range, added + older[1]);
  return added + older[1];
}

/** A log kept for a range from `base` to any head (rangeKey's form), as [key, log]. */
function keptForBase(cache: LogCache | undefined, base: string, shallow: boolean): [string, string] | undefined {
  const suffix = rangeKey('', base, shallow);
  return [...(cache?.kept?.() ?? [])].find(([key]) => key.endsWith(suffix) && COMMIT.test(key.slice(0, key.indexOf(' '))));
}

/** True when the commits (newest first) are 1 to MAX_ADDED commits in a line, each the only parent of the one before, on top of `oldHead`. */
function inLineOn(commits: readonly HistoryCommit[], oldHead: string): boolean {
  if (commits.length === 0 || commits.length > MAX_ADDED) return false;
  return commits.every((c, i) => c.parents.length === 1 && c.parents[0] === (i + 1 < commits.length ? commits[i + 1].hash : oldHead));
}

/** The work tree's top, whether the clone is shallow, HEAD and, when `commits` are given, those of them git has (all, else undefined), from one `git rev-parse`. */
function topShallowHead(dir: string, env: Env, commits: readonly string[]): { root: string; shallow: string; head: string; present?: Set<string> } | undefined {
  try {
    const [top, shallow, head, ...found] = git(['rev-parse', '--show-toplevel', '--is-shallow-repository', 'HEAD', ...commits.map((c) => `${c}^{commit}`)], dir, quiet(env), { timeoutMs: TIMEOUT_MS }).trim().split('\n');
    if (!(top && shallow && head)) return undefined;
    return { root: resolve(dir, top), shallow, head, ...(commits.length ? { present: new Set(found) } : {}) };
  } catch {
    return undefined;
  }
}

/** `{ verified: HEAD }` for a memory directory inside git with a commit; empty otherwise. */
export function verifiedStamp(root: string, env: Record<string, string | undefined> = process.env): { verified?: string } {
  const head = headCommit(root, env);
  return head ? { verified: head } : {};
}
