/**
 * Profiles are presets over the same packing: a default budget and the files to treat as pinned
 * (loaded in full before any other, while they fit). Design §5 and the handoff budgets of the
 * source document: complete 15-25k, specialist 5-10k, continuation 30-40k, emergency 10-15k.
 */
import { isSessionFile } from '../memindex/groups.js';
import type { PackFile } from './types.js';
import { isOpenIssue, updatedMs } from './score.js';

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
const writtenMs = updatedMs;
const newest = (a: PackFile, b: PackFile) => writtenMs(b) - writtenMs(a) || byPath(a, b);
const within = (file: PackFile, now: Date, days: number) => now.getTime() - updatedMs(file) <= days * DAY;

function latestState(): PickRule {
  return {
    label: 'the latest state or session',
    select: (files) => files.filter((f) => f.kind === 'state' || isSessionFile(f)).sort(newest).slice(0, 1),
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
        .sort((a, b) => (SEVERITY_RANK[b.severity ?? ''] ?? 0) - (SEVERITY_RANK[a.severity ?? ''] ?? 0) || updatedMs(a) - updatedMs(b) || byPath(a, b))
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
    rules: [latestState(), decisions(30, 7, 10), openIssues(['critical', 'high'], 15), learnings(60, 5)],
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
