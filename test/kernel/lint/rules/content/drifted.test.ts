import { describe, expect, it } from 'vitest';
import type { Drift } from '../../../../../src/kernel/drift/drift.js';
import { VALID, doc, lint, lines, mem } from '../../../../helpers/lint.js';

describe('content/drifted', () => {
  it('reports drift, drift that cannot be told, paths all gone and anchors outside the repository, at the key they come from', async () => {
    const verified = { ...VALID, verified: 'a1b2c3d4e5f6' };
    const files = [mem('auth.md', doc(verified)), mem('db.md', doc(verified)), mem('old.md', doc(verified)), mem('out.md', doc({ ...VALID, paths: '../etc' }))];
    const latest = { hash: 'f00dfeed1234', subject: 'Move auth' };
    const drift = new Map<string, Drift>([
      ['auth.md', { state: 'drifted', verified: 'a1b2c3d4e5f6', paths: ['src/auth.ts'], commits: 2, latest, gone: [], allGone: false }],
      ['db.md', { state: 'unknown', reason: 'commit a1b2c3d is not in this clone' }],
      ['old.md', { state: 'drifted', verified: 'a1b2c3d4e5f6', paths: ['src/old.ts'], commits: 1, latest, gone: [{ path: 'src/old.ts' }], allGone: true }],
    ] as [string, Drift][]);
    const result = await lint(['content/drifted'], { files, drift, outsideAnchors: new Map([['out.md', ['../etc']]]) });
    expect(lines(result)).toEqual([
      'auth.md:6:1 content/drifted src/auth.ts changed in 2 commits since it was verified (a1b2c3d), latest f00dfee "Move auth"; check it against the code, then run `memctx verify auth.md`',
      'db.md:6:1 content/drifted cannot tell whether it still holds: commit a1b2c3d is not in this clone; check it against the code, then run `memctx verify db.md`',
      'old.md:6:1 content/drifted every path it is about is gone (src/old.ts changed in 1 commit since it was verified (a1b2c3d), latest f00dfee "Move auth"; src/old.ts deleted); update it to the new paths or remove it',
      'out.md:6:1 content/drifted paths: ../etc is outside the repository; anchors are paths inside it, relative to its root',
    ]);
    expect(result.warningCount).toBe(4);
  });
});
