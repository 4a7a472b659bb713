import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readSummaryJob, removeSummaryJob, runningSummaryJob, saveSummaryJob, type SummaryJob } from '../../../src/kernel/state/summary-jobs.js';
import { removeDir, stateOf, tempDir } from '../../helpers/cli.js';

let dir: string;
let job: SummaryJob;
const T0 = new Date('2026-11-28T10:00:00Z');

beforeEach(() => {
  dir = tempDir('memctx-summary-jobs-');
  mkdirSync(join(dir, '.memory'));
  writeFileSync(join(dir, '.memory/MEMORY.md'), '# Memory\n');
  job = { agent: 'claude', root: join(dir, '.memory'), cwd: dir, transcript: join(dir, 't.jsonl'), sessionId: 's-1', path: 'sessions/a.md', sha256: 'a'.repeat(64), target: 500, max: 650, encoding: 'o200k_base', timeoutSeconds: 60, label: 'SessionEnd(exit) session=s-1', started: T0.toISOString() };
});
afterEach(() => removeDir(dir));

describe('summary jobs', () => {
  it('are saved in the state folder and read back', async () => {
    const path = await saveSummaryJob(job);
    expect(path).toBe(join(stateOf(job.root), 'summary-job-s-1.json'));
    expect(readSummaryJob(path!)).toEqual(job);
  });
  it('count as running until their time limit and a grace minute have passed', async () => {
    await saveSummaryJob(job);
    expect(runningSummaryJob(job.root, 's-1', new Date(T0.getTime() + 119_000))).toEqual(job);
    expect(runningSummaryJob(job.root, 's-1', new Date(T0.getTime() + 121_000))).toBeUndefined();
    expect(runningSummaryJob(job.root, 's-2', T0)).toBeUndefined();
  });
  it('are removed by the worker', async () => {
    const path = (await saveSummaryJob(job))!;
    removeSummaryJob(job);
    expect(existsSync(path)).toBe(false);
  });
  it('refuse a file that is not a job: another agent, a missing field', async () => {
    const path = (await saveSummaryJob(job))!;
    for (const bad of [{ ...job, agent: 'sh -c x' }, { ...job, timeoutSeconds: 0 }, { ...job, root: undefined }, []]) {
      writeFileSync(path, JSON.stringify(bad));
      expect(readSummaryJob(path)).toBeUndefined();
    }
  });
});
