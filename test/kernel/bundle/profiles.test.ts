import { describe, expect, it } from 'vitest';
import { PROFILES, PROFILE_NAMES, profilePicks } from '../../../src/kernel/bundle/profiles.js';
import { NOW, hoursAgo, memory } from '../../helpers/pack-files.js';

const DAY = 24;
const files = [
  memory('state_old.md', { name: 'old state', kind: 'state', updated: hoursAgo(10 * DAY) }),
  memory('state_new.md', { name: 'new state', kind: 'state', updated: hoursAgo(2 * DAY) }),
  memory('sessions/s1.md', { name: 's1', kind: 'session', updated: hoursAgo(1 * DAY) }),
  memory('dec_a.md', { name: 'a', kind: 'decision', importance: 9, updated: hoursAgo(20 * DAY) }),
  memory('dec_b.md', { name: 'b', kind: 'decision', importance: 7, updated: hoursAgo(3 * DAY) }),
  memory('dec_low.md', { name: 'low', kind: 'decision', importance: 6, updated: hoursAgo(1 * DAY) }),
  memory('dec_old.md', { name: 'old', kind: 'decision', importance: 10, updated: hoursAgo(31 * DAY) }),
  memory('iss_high_old.md', { name: 'h1', kind: 'issue', status: 'open', severity: 'high', updated: hoursAgo(40 * DAY) }),
  memory('iss_crit.md', { name: 'c', kind: 'issue', status: 'open', severity: 'critical', updated: hoursAgo(1 * DAY) }),
  memory('iss_high_new.md', { name: 'h2', kind: 'issue', status: 'open', severity: 'high', updated: hoursAgo(5 * DAY) }),
  memory('iss_low.md', { name: 'l', kind: 'issue', status: 'open', severity: 'low', updated: hoursAgo(1 * DAY) }),
  memory('iss_done.md', { name: 'd', kind: 'issue', status: 'resolved', severity: 'critical', updated: hoursAgo(1 * DAY) }),
  memory('learn_a.md', { name: 'la', kind: 'learning', updated: hoursAgo(50 * DAY) }),
  memory('learn_b.md', { name: 'lb', kind: 'learning', updated: hoursAgo(5 * DAY) }),
  memory('learn_old.md', { name: 'lo', kind: 'learning', updated: hoursAgo(61 * DAY) }),
];
const access: Record<string, number> = { 'learn_a.md': 4, 'learn_b.md': 1 };
const ctx = { now: NOW, accessCount: (p: string) => access[p] ?? 0 };

describe('profiles', () => {
  it('rehydrate: latest state or session, decisions >= 7 from 30 days, open critical/high issues, learnings from 60 days by access', () => {
    expect(profilePicks(PROFILES.rehydrate, files, ctx)).toEqual([
      'sessions/s1.md',
      'dec_a.md', 'dec_b.md',
      'iss_crit.md', 'iss_high_old.md', 'iss_high_new.md',
      'learn_a.md', 'learn_b.md',
    ]);
    expect(PROFILES.rehydrate.budget).toBe(25_000);
  });

  it('handoff-emergency keeps critical state only', () => {
    expect(profilePicks(PROFILES['handoff-emergency'], files, ctx)).toEqual(['sessions/s1.md', 'iss_crit.md', 'iss_high_old.md', 'iss_high_new.md']);
  });

  it('handoff-continuation keeps the most, handoff-specialist picks nothing and needs the task', () => {
    expect(profilePicks(PROFILES['handoff-continuation'], files, ctx)).toEqual([
      'sessions/s1.md', 'dec_a.md', 'dec_b.md', 'dec_low.md', 'iss_crit.md', 'iss_high_old.md', 'iss_high_new.md', 'iss_low.md', 'learn_a.md', 'learn_b.md',
    ]);
    expect(profilePicks(PROFILES['handoff-specialist'], files, ctx)).toEqual([]);
    expect(PROFILES['handoff-specialist'].taskOnly).toBe(true);
  });

  it('has the budgets of design §5', () => {
    expect(PROFILE_NAMES.map((n) => PROFILES[n].budget)).toEqual([25_000, 25_000, 10_000, 40_000, 15_000]);
  });
});

describe('rehydrate (the SessionStart bundle): open work survives', () => {
  const session = (path: string, hours: number, sections: Record<string, string[]>) =>
    memory(path, { name: path, kind: 'session', updated: hoursAgo(hours) }, Object.entries(sections).map(([h, items]) => `## ${h}\n\n${(items.length ? items : ['none recorded']).map((i) => `- ${i}`).join('\n')}\n`).join('\n'));
  const work = session('sessions/work.md', 5, { Progress: ['Committed the parser'], 'Changed Files': ['src/parse.ts'], 'Next Steps': ['Port the printer to the new parser', 'Open a pull request'] });
  const older = session('sessions/older.md', 30, { Progress: [], 'Changed Files': ['src/lex.ts'], 'Next Steps': ['Benchmark the lexer'] });
  const closed = session('sessions/closed.md', 40, { Progress: [], 'Changed Files': ['a.ts'], 'Next Steps': ['Committed the parser'] });
  const question = session('sessions/question.md', 1, { Progress: ['Answered how the lexer works'], 'Changed Files': [], 'Next Steps': ['None: the session ended with the work done.'] });

  it('a session that changed nothing and left nothing open does not displace the work session', () => {
    expect(profilePicks(PROFILES.rehydrate, [work, question], ctx)).toEqual(['sessions/work.md']);
  });

  it('every recent session with a Next Step still open is carried, newest first; one a later session finished is not', () => {
    expect(profilePicks(PROFILES.rehydrate, [question, work, older, closed], ctx)).toEqual(['sessions/work.md', 'sessions/older.md']);
  });

  it('with only trivial sessions, the latest one is still the latest state', () => {
    expect(profilePicks(PROFILES.rehydrate, [question], ctx)).toEqual(['sessions/question.md']);
  });
});
