/** Archival rules: which memory files have served their time. Pure: no clock, no disk. */
import { isResolvedStatus } from '../store/schema.js';
import type { MemoryFile } from '../store/types.js';
import { fileTime } from './age.js';
import { supersession } from './supersede.js';
import { isoDay, parseDate } from '../dates.js';

type ArchiveRule = 'expired' | 'old-decision' | 'resolved-issue' | 'superseded' | 'superseded-state' | 'unused-learning';

export interface ArchiveCandidate {
  path: string;
  rule: ArchiveRule;
  reason: string;
}

export interface ArchiveThresholds {
  decisionMaxAgeDays: number;
  decisionMaxImportance: number;
  resolvedIssueMaxAgeDays: number;
  learningUnusedDays: number;
}

export const DEFAULT_ARCHIVE_THRESHOLDS: ArchiveThresholds = {
  decisionMaxAgeDays: 90,
  decisionMaxImportance: 5,
  resolvedIssueMaxAgeDays: 30,
  learningUnusedDays: 180,
};

export interface ArchiveOptions {
  now: Date;
  thresholds?: Partial<ArchiveThresholds>;
  /** Last access per path (ms); a file without an entry has no recorded access. */
  lastAccess?: Map<string, number>;
}

const DAY = 86_400_000;

/** When the file last changed (age.ts: updated, created, last commit, mtime). */
export function lastChangeMs(file: MemoryFile): { ms: number; label: string } {
  return fileTime(file);
}

const ageDays = (now: Date, ms: number) => Math.floor((now.getTime() - ms) / DAY);

/** `expires` is past. */
export function expiredReason(file: Pick<MemoryFile, 'expires'>, now: Date): string | undefined {
  if (!file.expires) return undefined;
  const ms = parseDate(file.expires);
  return ms !== undefined && ms <= now.getTime() ? `expired on ${file.expires}` : undefined;
}

/**
 * The stale rules content/stale shares with gc: expired, a decision of low importance older than
 * the limit, a resolved issue older than the limit.
 */
export function staleReasons(file: MemoryFile, now: Date, limits: Partial<ArchiveThresholds> = {}): ArchiveCandidate[] {
  const t = { ...DEFAULT_ARCHIVE_THRESHOLDS, ...limits };
  const out: ArchiveCandidate[] = [];
  const expired = expiredReason(file, now);
  if (expired) out.push({ path: file.path, rule: 'expired', reason: expired });
  const changed = lastChangeMs(file);
  const age = ageDays(now, changed.ms);
  if (file.kind === 'decision' && file.importance <= t.decisionMaxImportance && age > t.decisionMaxAgeDays) {
    out.push({ path: file.path, rule: 'old-decision', reason: `decision of importance ${file.importance} (at most ${t.decisionMaxImportance}) last updated ${changed.label}, ${age} days ago (over ${t.decisionMaxAgeDays})` });
  }
  if (file.kind === 'issue' && isResolvedStatus(file.status) && age > t.resolvedIssueMaxAgeDays) {
    out.push({ path: file.path, rule: 'resolved-issue', reason: `resolved issue last updated ${changed.label}, ${age} days ago (over ${t.resolvedIssueMaxAgeDays})` });
  }
  return out;
}

const SUPERSEDED_KEYS = ['superseded_by', 'supersededBy', 'superseded-by'];

function taskFolder(path: string): string | undefined {
  const m = /^tasks\/[^/]+\//.exec(path);
  return m ? m[0] : undefined;
}

/**
 * States that are no longer current: marked `status: superseded` or `superseded_by:`, or older
 * than another state with the same name in the same folder, or (in a `tasks/<slug>/` folder, one task's history)
 * older than another state in the same folder.
 */
/** Same name counts only within one folder: tasks/auth/state.md is no rival of tasks/billing/state.md. */
function nameKey(file: MemoryFile): string {
  const dir = file.path.includes('/') ? file.path.slice(0, file.path.lastIndexOf('/')) : '';
  return `name:${dir}:${file.name.trim().toLowerCase()}`;
}

function supersededStates(files: MemoryFile[]): Map<string, string> {
  const states = files.filter((f) => f.kind === 'state');
  const out = new Map<string, string>();
  const newest = new Map<string, MemoryFile>();
  const consider = (key: string, file: MemoryFile) => {
    const best = newest.get(key);
    if (!best || lastChangeMs(file).ms > lastChangeMs(best).ms) newest.set(key, file);
  };
  for (const file of states) {
    consider(nameKey(file), file);
    const folder = taskFolder(file.path);
    if (folder) consider(`task:${folder}`, file);
  }
  for (const file of states) {
    const marker = SUPERSEDED_KEYS.map((k) => file.data[k]).find((v): v is string => typeof v === 'string' && v.trim() !== '');
    if (marker) {
      out.set(file.path, `state superseded by ${marker.trim()} (superseded_by)`);
      continue;
    }
    if (file.status === 'superseded') {
      out.set(file.path, 'state marked `status: superseded`');
      continue;
    }
    const mine = lastChangeMs(file).ms;
    const folder = taskFolder(file.path);
    const rivals = [newest.get(nameKey(file)), folder ? newest.get(`task:${folder}`) : undefined];
    const newer = rivals.find((r) => r && r !== file && lastChangeMs(r).ms > mine);
    if (newer) out.set(file.path, `state superseded by the newer state ${newer.path} (updated ${lastChangeMs(newer).label})`);
  }
  return out;
}

/** A learning neither accessed nor updated within the limit. */
function unusedLearningReason(file: MemoryFile, now: Date, days: number, lastAccess?: number): string | undefined {
  if (file.kind !== 'learning') return undefined;
  const changed = lastChangeMs(file);
  const last = Math.max(changed.ms, lastAccess ?? Number.NEGATIVE_INFINITY);
  const age = ageDays(now, last);
  if (age <= days) return undefined;
  return lastAccess === undefined
    ? `learning with no recorded access, last updated ${changed.label}, ${age} days ago (over ${days})`
    : `learning last accessed ${isoDay(lastAccess)}, ${age} days ago (over ${days})`;
}

/** Every file gc would archive, with its first reason; pinned files are never archived. Sorted by path. */
export function archiveCandidates(files: MemoryFile[], options: ArchiveOptions): ArchiveCandidate[] {
  const t = { ...DEFAULT_ARCHIVE_THRESHOLDS, ...options.thresholds };
  const superseded = supersededStates(files);
  const replaced = supersession(files).superseded;
  const out: ArchiveCandidate[] = [];
  for (const file of files) {
    if (file.pinned) continue;
    const stale = staleReasons(file, options.now, t)[0];
    if (stale) {
      out.push(stale);
      continue;
    }
    const why = replaced.get(file.path);
    if (why && (file.kind === 'decision' || (file.kind === 'state' && why !== 'status: superseded'))) {
      out.push({ path: file.path, rule: 'superseded', reason: `${file.kind} ${why}` });
      continue;
    }
    const state = superseded.get(file.path);
    if (state) {
      out.push({ path: file.path, rule: 'superseded-state', reason: state });
      continue;
    }
    const learning = unusedLearningReason(file, options.now, t.learningUnusedDays, options.lastAccess?.get(file.path));
    if (learning) out.push({ path: file.path, rule: 'unused-learning', reason: learning });
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
