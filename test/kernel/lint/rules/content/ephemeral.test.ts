import { describe, expect, it } from 'vitest';
import { VALID, doc, lines, lint, mem } from '../../../../helpers/lint.js';

const hashes = async (body: string) => lines(await lint(['content/ephemeral'], { files: [mem('n.md', doc(VALID, body))] }));

describe('the hex-run pre-check of content/ephemeral (a body without 7 hex digits in a row is not searched for hashes)', () => {
  it('finds a hash wherever it starts in the body, whatever the case, at the very end too', async () => {
    for (let offset = 0; offset < 15; offset++) {
      const lead = 'x'.repeat(offset);
      expect(await hashes(`${lead} commit 3f2a9c1`), `offset ${offset}`).toEqual([
        `n.md:7:${offset + 9} content/ephemeral commit hash 3f2a9c1: git history belongs in git (\`git log\`), not in memory; keep the durable fact`,
      ]);
      expect((await hashes(`${lead} commit 3F2A9C1D\nnext line`)).length, `offset ${offset}, upper case`).toBe(1);
    }
  });
});

describe('content rules', () => {
  it('ephemeral: test-run timestamps, commit hashes, git history, pasted logs', async () => {
    const body = [
      'Iteration 3 passed at 14:32 after the retry fix.', // 7
      'The fix landed in commit 3f2a9c1d on main.', // 8
      'Author: Jane Doe <jane@example.com>', // 9
      'Merge pull request #42 from org/feature', // 10
      'a1b2c3d Fix auth', // 11
      'e4f5a6b Add tests', // 12
      '```', // 13
      '2026-11-21T10:00:01Z INFO starting', // 14
      '2026-11-21T10:00:02Z INFO listening', // 15
      '2026-11-21T10:00:03Z WARN slow', // 16
      '2026-11-21T10:00:04Z ERROR failed', // 17
      '    at handler (src/server.ts:10:5)', // 18
      '```', // 19
      'Durable: the decade-old accessor stays; color #aabbcc; uuid 123e4567-e89b-12d3-a456-426614174000.', // 20
      'Full sha 0123456789abcdef0123456789abcdef01234567 here.', // 21
    ].join('\n');
    const file = mem('notes.md', doc(VALID, body));
    expect(file.bodyLine).toBe(7);
    expect(lines(await lint(['content/ephemeral'], { files: [file] }))).toEqual([
      'notes.md:7:13 content/ephemeral test-run timestamp "passed at 14:32": ephemeral task state; keep only the durable fact',
      'notes.md:8:26 content/ephemeral commit hash 3f2a9c1…: git history belongs in git (`git log`), not in memory; keep the durable fact',
      'notes.md:9:1 content/ephemeral pasted git history (an `Author:` line of git log); git already keeps it',
      'notes.md:10:1 content/ephemeral pasted git history (a merge record); git already keeps it',
      'notes.md:11:1 content/ephemeral pasted git history (2 lines of `git log --oneline`); git already keeps it',
      'notes.md:14:1 content/ephemeral pasted log output (5 lines); store the conclusion, not the raw output',
      'notes.md:21:10 content/ephemeral commit hash 0123456…: git history belongs in git (`git log`), not in memory; keep the durable fact',
    ]);
  });
});
