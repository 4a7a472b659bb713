import { describe, expect, it } from 'vitest';
import { archiveCandidates, lastChangeMs } from '../../../src/kernel/lifecycle/archive.js';
import { VALID, doc, mem, NOW } from '../../helpers/lint.js';
import { stateOf } from '../../helpers/cli.js';

const day = 86_400_000;

describe('archival rules', () => {
  it('lists each candidate with its reason; pinned and current files stay', () => {
    const files = [
      mem('expired.md', doc({ ...VALID, expires: '2026-11-01' })),
      mem('future.md', doc({ ...VALID, expires: '2027-01-01' })),
      mem('old-decision.md', doc({ ...VALID, kind: 'decision', importance: 4, updated: '2026-01-10' })),
      mem('key-decision.md', doc({ ...VALID, kind: 'decision', importance: 8, updated: '2020-01-10' })),
      mem('resolved.md', doc({ ...VALID, kind: 'issue', status: 'resolved', updated: '2026-09-01' })),
      mem('fixed.md', doc({ ...VALID, kind: 'issue', status: 'fixed', updated: '2026-09-01' })),
      mem('open.md', doc({ ...VALID, kind: 'issue', status: 'open', updated: '2020-09-01' })),
      mem('pinned.md', doc({ ...VALID, kind: 'decision', importance: 1, updated: '2020-01-01', pinned: 'true' })),
    ];
    expect(archiveCandidates(files, { now: NOW })).toEqual([
      { path: 'expired.md', rule: 'expired', reason: 'expired on 2026-11-01' },
      { path: 'fixed.md', rule: 'resolved-issue', reason: 'resolved issue last updated 2026-09-01, 81 days ago (over 30)' },
      { path: 'old-decision.md', rule: 'old-decision', reason: 'decision of importance 4 (at most 5) last updated 2026-01-10, 315 days ago (over 90)' },
      { path: 'resolved.md', rule: 'resolved-issue', reason: 'resolved issue last updated 2026-09-01, 81 days ago (over 30)' },
    ]);
  });

  it('superseded states: marked, or older than a state with the same name or in the same task folder', () => {
    const files = [
      mem('tasks/auth/state-1.md', doc({ ...VALID, name: 'Auth state 1', kind: 'state', updated: '2026-11-01' })),
      mem('tasks/auth/state-2.md', doc({ ...VALID, name: 'Auth state 2', kind: 'state', updated: '2026-11-20' })),
      mem('db-state.md', doc({ ...VALID, name: 'DB state', kind: 'state', updated: '2026-10-01' })),
      mem('db-state-new.md', doc({ ...VALID, name: 'DB state', kind: 'state', updated: '2026-11-01' })),
      mem('cache-state.md', doc({ ...VALID, name: 'Cache state', kind: 'state', updated: '2026-11-01' })),
      mem('marked.md', doc({ ...VALID, name: 'M', kind: 'state', superseded_by: 'cache-state.md' })),
      mem('status.md', doc({ ...VALID, name: 'S', kind: 'state', status: 'superseded' })),
    ];
    expect(archiveCandidates(files, { now: NOW })).toEqual([
      { path: 'db-state.md', rule: 'superseded-state', reason: 'state superseded by the newer state db-state-new.md (updated 2026-11-01)' },
      { path: 'marked.md', rule: 'superseded-state', reason: 'state superseded by cache-state.md (superseded_by)' },
      { path: 'status.md', rule: 'superseded-state', reason: 'state marked `status: superseded`' },
      { path: 'tasks/auth/state-1.md', rule: 'superseded-state', reason: 'state superseded by the newer state tasks/auth/state-2.md (updated 2026-11-20)' },
    ]);
  });

  it('learnings: last access from the stats, else the update date; recent use keeps a file', () => {
    const files = [
      mem('never.md', doc({ ...VALID, kind: 'learning', updated: '2026-01-01' })),
      mem('used.md', doc({ ...VALID, kind: 'learning', updated: '2026-01-01' })),
      mem('stale-use.md', doc({ ...VALID, kind: 'learning', updated: '2025-01-01' })),
      mem('new.md', doc({ ...VALID, kind: 'learning', updated: '2026-11-01' })),
    ];
    const lastAccess = new Map([['used.md', NOW.getTime() - 10 * day], ['stale-use.md', Date.parse('2026-03-01')]]);
    expect(archiveCandidates(files, { now: NOW, lastAccess })).toEqual([
      { path: 'never.md', rule: 'unused-learning', reason: 'learning with no recorded access, last updated 2026-01-01, 324 days ago (over 180)' },
      { path: 'stale-use.md', rule: 'unused-learning', reason: 'learning last accessed 2026-03-01, 265 days ago (over 180)' },
    ]);
  });

  it('thresholds are configurable, and a file without dates falls back to its modification time', () => {
    const files = [mem('d.md', doc({ name: 'n', description: 'd', type: 'project', kind: 'decision', importance: 5 }), NOW.getTime() - 40 * day)];
    expect(lastChangeMs(files[0]).label).toBe('2026-10-12 (file time)');
    expect(archiveCandidates(files, { now: NOW })).toEqual([]);
    expect(archiveCandidates(files, { now: NOW, thresholds: { decisionMaxAgeDays: 30 } })).toEqual([
      { path: 'd.md', rule: 'old-decision', reason: 'decision of importance 5 (at most 5) last updated 2026-10-12 (file time), 40 days ago (over 30)' },
    ]);
  });
});

describe('access statistics', () => {
  it('reads the last access per path; a missing or corrupt stats.json is no access data', async () => {
    const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { readAccessTimes } = await import('../../../src/kernel/state/stats.js');
    const root = mkdtempSync(join(tmpdir(), 'memctx-stats-'));
    try {
      expect(readAccessTimes(root).size).toBe(0);
      writeFileSync(join(root, 'MEMORY.md'), '# Memory\n');
      writeFileSync(join(stateOf(root), 'stats.json'), '{ not json');
      expect(readAccessTimes(root).size).toBe(0);
      writeFileSync(join(stateOf(root), 'stats.json'), JSON.stringify({ files: { 'a.md': { count: 2, last: '2026-11-01T10:00:00Z' }, 'b.md': { count: 1 }, 'c.md': { count: 1, last: 'never' } } }));
      expect([...readAccessTimes(root)]).toEqual([['a.md', Date.parse('2026-11-01T10:00:00Z')]]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
