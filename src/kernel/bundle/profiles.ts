/**
 * Profiles are presets over the same packing: a default budget and the files to treat as pinned
 * (loaded in full before any other, while they fit). Design §5 and the handoff budgets of the
 * source document: complete 15-25k, specialist 5-10k, continuation 30-40k, emergency 10-15k.
 */
import { isSessionFile } from '../memindex/groups.js';
import type { PackFile } from '../rank/types.js';
import { isOpenIssue } from '../rank/score.js';
import { fileTimeMs } from '../lifecycle/age.js';

export const PROFILE_NAMES = ['rehydrate', 'handoff-complete', 'handoff-specialist', 'handoff-continuation', 'handoff-emergency'] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];

export interface PickContext {
  now: Date;
  /** Access count of a path (from .memctx/stats.json). */
  accessCount: (path: string) => number;
}

interface PickRule {
  /** What the rule takes, for the README and the report. */
  label: string;
  select(files: readonly PackFile[], ctx: PickContext): PackFile[];
}

export interface Profile {
  name: ProfileName;
  budget: number;
  summary: string;
  rules: PickRule[];
  /** Summaries only for files the task or --focus reaches; everything else stays in the index. */
  taskOnly?: boolean;
}

const DAY = 86_400_000;
const SEVERITY_RANK: Record<string, number> = { critical: 4, high: 3, medium: 2, low: 1 };
const byPath = (a: PackFile, b: PackFile) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
const newest = (a: PackFile, b: PackFile) => fileTimeMs(b) - fileTimeMs(a) || byPath(a, b);
const within = (file: PackFile, now: Date, days: number) => now.getTime() - fileTimeMs(file) <= days * DAY;

/** A session file's list items under `## heading` (the session template's sections). */
function sessionItems(body: string, heading: string): string[] {
  const at = body.search(new RegExp(`^##\\s+${heading}\\s*$`, 'm'));
  if (at < 0) return [];
  const rest = body.slice(at).split('\n').slice(1);
  const end = rest.findIndex((l) => /^#{1,2}\s/.test(l));
  return (end < 0 ? rest : rest.slice(0, end)).map((l) => /^\s*[-*+]\s+(.*)$/.exec(l)?.[1]?.trim()).filter((l): l is string => !!l);
}

/** Items that say there is nothing (`none recorded`, `None: the session ended with the work done.`) or stand for left-out ones. */
const NOTHING_OPEN = /^(?:none\b|nothing\b|n\/a$|\[…)/i;
const words = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();

/** A session's Next Steps that are still open: not "none", and not reported done in a later session's Progress. */
function openSteps(file: PackFile, later: readonly PackFile[]): string[] {
  const done = later.map((f) => words(sessionItems(f.body, 'Progress').join(' ')));
  return sessionItems(file.body, 'Next Steps').filter((step) => !NOTHING_OPEN.test(step) && !done.some((d) => d.includes(words(step))));
}

/** A session that changed nothing and left nothing open (a question answered): it does not displace a work session. */
function trivialSession(file: PackFile): boolean {
  // only a session template's file says what it changed: one without the section is not judged
  return isSessionFile(file) && /^##\s+Changed Files\s*$/m.test(file.body) && !sessionItems(file.body, 'Changed Files').some((i) => !NOTHING_OPEN.test(i)) && openSteps(file, []).length === 0;
}

function latestState(): PickRule {
  return {
    label: 'the latest state or work session (a session that changed nothing and left nothing open does not count)',
    select: (files) => {
      const candidates = files.filter((f) => f.kind === 'state' || isSessionFile(f)).sort(newest);
      return (candidates.find((f) => !trivialSession(f)) ?? candidates[0]) ? [candidates.find((f) => !trivialSession(f)) ?? candidates[0]] : [];
    },
  };
}

/** Recent sessions whose Next Steps are still open (whichever session was last), newest first. */
function openWork(days: number, limit: number): PickRule {
  return {
    label: `sessions from the last ${days} days with Next Steps still open (up to ${limit})`,
    select: (files, ctx) => {
      const recent = files.filter((f) => isSessionFile(f) && within(f, ctx.now, days)).sort(newest);
      return recent.filter((f, i) => openSteps(f, recent.slice(0, i)).length > 0).slice(0, limit);
    },
  };
}

function sessions(limit: number): PickRule {
  return { label: `the latest ${limit} sessions`, select: (files) => files.filter(isSessionFile).sort(newest).slice(0, limit) };
}

function decisions(days: number, minImportance: number, limit: number): PickRule {
  return {
    label: `decisions with importance >= ${minImportance} from the last ${days} days (up to ${limit})`,
    select: (files, ctx) =>
      files
        .filter((f) => f.kind === 'decision' && f.importance >= minImportance && within(f, ctx.now, days))
        .sort((a, b) => b.importance - a.importance || newest(a, b))
        .slice(0, limit),
  };
}

function openIssues(severities: string[] | undefined, limit: number): PickRule {
  const which = severities ? `${severities.join('/')} ` : '';
  return {
    label: `open ${which}issues, most severe and oldest first (up to ${limit})`,
    select: (files) =>
      files
        .filter((f) => isOpenIssue(f) && (!severities || severities.includes(f.severity ?? '')))
        .sort((a, b) => (SEVERITY_RANK[b.severity ?? ''] ?? 0) - (SEVERITY_RANK[a.severity ?? ''] ?? 0) || fileTimeMs(a) - fileTimeMs(b) || byPath(a, b))
        .slice(0, limit),
  };
}

function learnings(days: number, limit: number): PickRule {
  return {
    label: `learnings from the last ${days} days, most accessed first (up to ${limit})`,
    select: (files, ctx) =>
      files
        .filter((f) => f.kind === 'learning' && within(f, ctx.now, days))
        .sort((a, b) => ctx.accessCount(b.path) - ctx.accessCount(a.path) || newest(a, b))
        .slice(0, limit),
  };
}

export const PROFILES: Record<ProfileName, Profile> = {
  rehydrate: {
    name: 'rehydrate',
    budget: 25_000,
    summary: 'start a new session where the last one stopped',
    rules: [latestState(), openWork(14, 4), decisions(30, 7, 10), openIssues(['critical', 'high'], 15), learnings(60, 5)],
  },
  'handoff-complete': {
    name: 'handoff-complete',
    budget: 25_000,
    summary: 'hand a finished task over, learnings included',
    rules: [latestState(), decisions(30, 7, 10), openIssues(undefined, 15), learnings(60, 10)],
  },
  'handoff-specialist': {
    name: 'handoff-specialist',
    budget: 10_000,
    summary: 'consult a specialist on one problem: only what --task or --focus reaches',
    rules: [],
    taskOnly: true,
  },
  'handoff-continuation': {
    name: 'handoff-continuation',
    budget: 40_000,
    summary: 'continue in a fresh context: keep as much as possible',
    rules: [latestState(), sessions(3), decisions(30, 5, 15), openIssues(undefined, 15), learnings(60, 5)],
  },
  'handoff-emergency': {
    name: 'handoff-emergency',
    budget: 15_000,
    summary: 'recover after a failure: critical state only',
    rules: [latestState(), openIssues(['critical', 'high'], 5), decisions(7, 8, 5)],
  },
};

/** The paths a profile loads first, in rule order, each once. */
export function profilePicks(profile: Profile, files: readonly PackFile[], ctx: PickContext): string[] {
  const picked = new Set<string>();
  for (const rule of profile.rules) for (const file of rule.select(files, ctx)) picked.add(file.path);
  return [...picked];
}
