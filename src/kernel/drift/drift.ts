/** Which memories the commits since their `verified` commit have drifted from: pure, over history git gave once. */
import { noteFile, type HistoryCommit } from '../sources/history.js';
import { globRegExp, type Anchors } from './anchors.js';

export interface DriftInput {
  /** The memory file, relative to the memory directory. */
  path: string;
  anchors: Anchors;
  verified: string;
}

export type Drift =
  | {
    state: 'drifted';
    verified: string;
    /** Anchors the commits touched. */
    paths: string[];
    commits: number;
    latest: { hash: string; subject: string };
    /** Anchors that no longer exist, with where a rename took them. */
    gone: { path: string; movedTo?: string }[];
    /** True when every anchor is gone. */
    allGone: boolean;
  }
  | { state: 'unknown'; reason: string };

export interface DriftHistory {
  commits: HistoryCommit[];
  /** Verified commits git does not have. */
  missing: Set<string>;
  /** The commits' files, indexed as indexHistory would (each changed path → its commits' positions, ascending), when the log's reader gave them. */
  files?: ReadonlyMap<string, number[]>;
}

interface Indexed {
  /** Each anchor path (a file or a folder) the commits changed → their positions, ascending. */
  touched: Map<string, number[]>;
  /** Each changed file path (new and old names) → the positions of the commits that changed it, ascending. */
  byFile: ReadonlyMap<string, number[]>;
}

/**
 * The commits' changes by file (one map entry per changed path, not per folder above it), then by
 * anchor: a file anchor takes its file's commits, a folder anchor the commits of every file under it.
 */
function indexHistory(commits: readonly HistoryCommit[], anchors: ReadonlySet<string>, files?: ReadonlyMap<string, number[]>): Indexed {
  const byFile = files ?? filesOf(commits);
  const found = new Map<string, number[][]>();
  for (const [path, positions] of byFile) {
    for (let cut = path.length; cut > 0; cut = path.lastIndexOf('/', cut - 1)) {
      const anchor = cut === path.length ? path : path.slice(0, cut);
      if (!anchors.has(anchor)) continue;
      const lists = found.get(anchor);
      if (lists === undefined) found.set(anchor, [positions]);
      else lists.push(positions);
    }
  }
  const touched = new Map<string, number[]>();
  for (const [anchor, lists] of found) touched.set(anchor, lists.length === 1 ? lists[0] : [...new Set(lists.flat())].sort((a, b) => a - b));
  return { touched, byFile };
}

/** Each changed path (new and old names) → the positions of the commits that changed it, ascending. */
function filesOf(commits: readonly HistoryCommit[]): Map<string, number[]> {
  const byFile = new Map<string, number[]>();
  for (let at = 0; at < commits.length; at++) {
    for (const change of commits[at].changes) {
      noteFile(byFile, change.path, at);
      if (change.from !== undefined) noteFile(byFile, change.from, at);
    }
  }
  return byFile;
}

/** The positions of the commits that changed a file the glob matches, ascending. */
function globPositions(re: RegExp, byFile: ReadonlyMap<string, number[]>): number[] {
  const found = new Set<number>();
  for (const [file, positions] of byFile) if (re.test(file)) for (const at of positions) found.add(at);
  return [...found].sort((a, b) => a - b);
}

/** The commits of the range a verified commit already contains: one bit per position. */
interface Contained {
  has(at: number): boolean;
}

const NOTHING: Contained = { has: () => false };

/**
 * For each verified commit, the positions of the commits in the range it already contains (itself and
 * its ancestors there), one bit per commit. The oldest are walked first, and a walk that reaches one
 * already walked takes its bits instead of walking on: the whole range is walked about once, however
 * many commits the memories were verified at.
 */
function containment(hashes: Iterable<string>, commits: readonly HistoryCommit[]): Map<string, Contained> {
  const words = (commits.length + 31) >>> 5;
  const walked = new Map<number, Uint32Array>();
  const out = new Map<string, Contained>();
  const wanted = new Set(hashes);
  const found = new Map<string, number>();
  for (let at = 0; at < commits.length && found.size < wanted.size; at++) if (wanted.has(commits[at].hash)) found.set(commits[at].hash, at);
  // most often no verified commit is in the range (all at its base or below it): no walk, no position of every commit
  const position = found.size === 0 ? found : positions(commits);
  const starts = [...wanted].map((hash) => ({ hash, start: found.get(hash) }));
  // git log lists a commit before its parents: the largest position first is the oldest first
  starts.sort((a, b) => (b.start ?? -1) - (a.start ?? -1));
  for (const { hash, start } of starts) {
    if (start === undefined) {
      out.set(hash, NOTHING);
      continue;
    }
    const bits = walked.get(start) ?? reachable(start, commits, position, walked, words);
    walked.set(start, bits);
    out.set(hash, { has: (at) => (bits[at >>> 5] & (1 << (at & 31))) !== 0 });
  }
  return out;
}

/** The bits of `start` and every commit of the range it reaches through parents; a walked commit's bits are taken whole. */
function reachable(start: number, commits: readonly HistoryCommit[], position: ReadonlyMap<string, number>, walked: ReadonlyMap<number, Uint32Array>, words: number): Uint32Array {
  const bits = new Uint32Array(words);
  const isSet = (at: number) => (bits[at >>> 5] & (1 << (at & 31))) !== 0;
  const stack = [start];
  while (stack.length) {
    const at = stack.pop()!;
    if (isSet(at)) continue;
    const known = at === start ? undefined : walked.get(at);
    if (known) {
      for (let w = 0; w < words; w++) bits[w] |= known[w];
      continue;
    }
    bits[at >>> 5] |= 1 << (at & 31);
    for (const parent of commits[at].parents) {
      const p = position.get(parent);
      if (p !== undefined && !isSet(p)) stack.push(p);
    }
  }
  return bits;
}

/** Each commit's position in the range, by hash. */
function positions(commits: readonly HistoryCommit[]): Map<string, number> {
  const position = new Map<string, number>();
  for (let at = 0; at < commits.length; at++) position.set(commits[at].hash, at);
  return position;
}

/** Where the latest rename among these commits took `path`, if one did. */
function movedTo(path: string, commits: readonly HistoryCommit[], positions: number[]): string | undefined {
  for (const at of positions) {
    const rename = commits[at].changes.find((c) => c.status === 'R' && c.from === path);
    if (rename) return rename.path;
  }
  return undefined;
}

/**
 * Each memory's drift: the commits after its verified one (not contained in it) that touched its
 * anchors. `exists` says whether a repository path is there now. Memories that still hold are absent.
 */
export function attributeDrift(memories: readonly DriftInput[], history: DriftHistory, exists: (path: string) => boolean): Map<string, Drift> {
  const { commits } = history;
  const index = indexHistory(commits, new Set(memories.flatMap((m) => m.anchors.paths)), history.files);
  const contained = containment(memories.filter((m) => !history.missing.has(m.verified)).map((m) => m.verified), commits);
  const globs = new Map<string, number[]>();
  const positionsOf = (glob: string) => {
    let positions = globs.get(glob);
    if (positions === undefined) globs.set(glob, (positions = globPositions(globRegExp(glob), index.byFile)));
    return positions;
  };
  const out = new Map<string, Drift>();
  for (const memory of memories) {
    if (history.missing.has(memory.verified)) {
      out.set(memory.path, { state: 'unknown', reason: `its verified commit ${memory.verified.slice(0, 12)} is not in this repository (rebased away?)` });
      continue;
    }
    const inside = contained.get(memory.verified)!;
    const paths: string[] = [];
    const lists: number[][] = [];
    const add = (anchor: string, positions: number[] | undefined) => {
      const after = positions === undefined || inside === NOTHING ? positions : positions.filter((at) => !inside.has(at));
      if (after === undefined || after.length === 0) return;
      paths.push(anchor);
      lists.push(after);
    };
    for (const path of memory.anchors.paths) add(path, index.touched.get(path));
    for (const glob of memory.anchors.globs) add(glob, positionsOf(glob));
    if (lists.length === 0) continue;
    // one anchor's positions are ascending and distinct already
    const order = lists.length === 1 ? lists[0] : [...new Set(lists.flat())].sort((a, b) => a - b);
    const gone = memory.anchors.paths.filter((p) => !exists(p)).map((path) => ({ path, movedTo: movedTo(path, commits, order) }));
    const latest = commits[order[0]];
    out.set(memory.path, {
      state: 'drifted',
      verified: memory.verified,
      paths,
      commits: order.length,
      latest: { hash: latest.hash, subject: latest.subject },
      gone,
      allGone: memory.anchors.globs.length === 0 && gone.length === memory.anchors.paths.length,
    });
  }
  return out;
}

/** The drift in one line: what changed since the memory was verified. */
export function describeDrift(drift: Extract<Drift, { state: 'drifted' }>): string {
  const shown = drift.paths.slice(0, 3).join(', ') + (drift.paths.length > 3 ? ` and ${drift.paths.length - 3} more` : '');
  const moves = drift.gone.map((g) => (g.movedTo ? `${g.path} moved to ${g.movedTo}` : `${g.path} deleted`));
  const subject = drift.latest.subject.length > 80 ? `${drift.latest.subject.slice(0, 79)}…` : drift.latest.subject;
  return `${shown} changed in ${drift.commits} commit${drift.commits === 1 ? '' : 's'} since it was verified (${drift.verified.slice(0, 7)}), latest ${drift.latest.hash.slice(0, 7)} "${subject}"${moves.length ? `; ${moves.slice(0, 3).join(', ')}` : ''}`;
}
