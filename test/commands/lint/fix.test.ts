// lint/fix.ts: lint --fix setting a missing date key, atomically, only on the file lint read.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { setMissingDate } from '../../../src/commands/lint/fix.js';
import { withMemoryLock } from '../../../src/kernel/store/write.js';
import { removeDir, tempDir } from '../../helpers/cli.js';

describe('setMissingDate', () => {
  it('sets the missing key the file uses, keeping every other byte', async () => {
    const root = tempDir();
    writeFileSync(join(root, 'a.md'), '---\nname: A\n# a comment\ndescription: d\ntype: user\n---\nbody\n');
    writeFileSync(join(root, 'b.md'), '---\nname: B\ndescription: d\ntype: user\ncreated: 2026-01-01\nmodified:\n---\nbody\n');
    expect(await withMemoryLock(root, () => setMissingDate(root, 'a.md', 'updated', '2026-11-21T00:00:00Z'))).toBeUndefined();
    expect(readFileSync(join(root, 'a.md'), 'utf8')).toBe('---\nname: A\n# a comment\ndescription: d\ntype: user\nupdated: 2026-11-21T00:00:00Z\n---\nbody\n');
    // lint was told `updated`; the file names its date `modified`: not this fix
    expect(await withMemoryLock(root, () => setMissingDate(root, 'b.md', 'updated', '2026-11-21T00:00:00Z'))).toBe('the file changed after lint read it (another process wrote it); run `memctx lint --fix` again');
  });
});

describe('a lost lint --fix race', () => {
  it('setMissingDate says the file changed after lint read it, and writes nothing', async () => {
    const root = tempDir();
    try {
      const text = '---\nname: R\ndescription: raced\ntype: user\nupdated: 2026-11-20\n---\nbody\n';
      writeFileSync(join(root, 'r.md'), text);
      // lint saw no `updated`; another process added one before the fix ran
      const why = await withMemoryLock(root, () => setMissingDate(root, 'r.md', 'updated', '2026-11-21T00:00:00Z'));
      expect(why).toBe('the file changed after lint read it (another process wrote it); run `memctx lint --fix` again');
      expect(readFileSync(join(root, 'r.md'), 'utf8')).toBe(text);
    } finally {
      removeDir(root);
    }
  });
});
