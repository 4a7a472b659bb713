import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MIN_SHINGLES, containment, jaccard, shingles, similarPairs } from '../../../src/kernel/text/similarity.js';
import { VALID, doc, lint, mem } from '../../helpers/lint.js';

const FACT = 'Integration tests run against a real Postgres started with testcontainers, and nobody mocks the repository layer, because a mocked query builder once hid a renamed column.';

function bruteForce(sets: Uint32Array[], t: number, c: number): string[] {
  const out: string[] = [];
  for (let a = 0; a < sets.length; a++) {
    for (let b = a + 1; b < sets.length; b++) {
      if (sets[a].length < MIN_SHINGLES || sets[b].length < MIN_SHINGLES) continue;
      if (jaccard(sets[a], sets[b]) >= t - 1e-9 || containment(sets[a], sets[b]) >= c - 1e-9) out.push(`${a}-${b}`);
    }
  }
  return out;
}

describe('text similarity', () => {
  it('with containment, finds exactly the pairs a comparison of every pair finds', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uniqueArray(fc.integer({ min: 0, max: 40 }), { maxLength: 30 }), { minLength: 2, maxLength: 25 }),
        fc.constantFrom(0.7, 0.85, 1),
        fc.constantFrom(0.6, 0.8, 1),
        (lists, t, c) => {
          const sets = lists.map((l) => Uint32Array.from(l).sort());
          expect(similarPairs(sets, t, c).map((p) => `${p.a}-${p.b}`)).toEqual(bruteForce(sets, t, c));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('containment is the share of the smaller set found in the other', () => {
    expect(containment(Uint32Array.of(1, 2, 3, 4), Uint32Array.of(1, 2, 3, 4, 5, 6, 7, 8))).toBe(1);
    expect(containment(Uint32Array.of(1, 2, 3, 4), Uint32Array.of(3, 4, 9))).toBeCloseTo(2 / 3, 12);
    expect(containment(new Uint32Array(0), Uint32Array.of(1))).toBe(0);
    expect(jaccard(shingles(FACT), shingles(FACT.replace('real', 'actual')))).toBeLessThan(0.85);
  });
});

describe('content/duplicate', () => {
  it('catches the same fact under another name and description, lightly edited', async () => {
    const files = [
      mem('feedback_testing.md', doc({ ...VALID, name: 'Testing rules', description: 'How we test' }, `${FACT}\n`)),
      mem('project_db_tests.md', doc({ ...VALID, name: 'DB test policy', description: 'Database tests policy' }, `${FACT.replace('real', 'actual')}\n`)),
    ];
    const result = await lint(['content/duplicate'], { files });
    expect(result.findings.map((f) => `${f.file} ${f.message}`)).toEqual([
      'project_db_tests.md near-duplicate of feedback_testing.md (88% of the shorter body is in the other); merge project_db_tests.md into feedback_testing.md or remove one',
    ]);
  });

  it('catches a fact copied into a longer file', async () => {
    const files = [
      mem('a.md', doc(VALID, `${FACT}\n`)),
      mem('b.md', doc(VALID, `# Notes\n\nThe API is Fastify. Workers use pg-boss and retry five times.\n\n${FACT}\n\nDeploys go out on Tuesdays and Thursdays.\n`)),
    ];
    expect((await lint(['content/duplicate'], { files })).findings.map((f) => f.file)).toEqual(['b.md']);
  });

  it('does not call two session files from one template duplicates', async () => {
    const session = (goal: string, progress: string, next: string) =>
      `## Goal\n${goal}\n\n## Progress\n- ${progress}\n\n## Decisions\nnone recorded\n\n## Changed Files\nnone recorded\n\n## Blockers\nnone recorded\n\n## Next Steps\n- ${next}\n`;
    const files = [
      mem('sessions/a.md', doc({ ...VALID, kind: 'session' }, session('Fix the flaky checkout test on WebKit.', 'Typing starts before the Stripe iframe is ready.', 'Wait for data-ready.'))),
      mem('sessions/b.md', doc({ ...VALID, kind: 'session' }, session('Speed up invoice search for big tenants.', 'Added a prefix index for invoice numbers.', 'Rank only the newest rows.'))),
      mem('sessions/c.md', doc({ ...VALID, kind: 'session' }, session('Replay dead-lettered webhook jobs.', 'Wrote an ops command that re-queues a job.', 'Document it in the runbook.'))),
    ];
    expect((await lint(['content/duplicate'], { files })).findings).toEqual([]);
  });
});
