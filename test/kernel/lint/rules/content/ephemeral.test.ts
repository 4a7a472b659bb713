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
