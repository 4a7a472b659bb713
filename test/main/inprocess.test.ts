import { describe, expect, it } from 'vitest';
import { runMemctx } from '../helpers/run.js';
import { copyFixture, removeDir, tempDir } from '../helpers/cli.js';
import { join } from 'node:path';

describe('in-process harness', () => {
  it('runs ls on the seed fixture like the bin', async () => {
    const root = tempDir();
    try {
      const dir = copyFixture('seed-memory', root);
      const r = await runMemctx(['--dir', dir, 'ls', '--json'], { cwd: root });
      expect(r.code).toBe(0);
      expect(Array.isArray(JSON.parse(r.stdout))).toBe(true);
      const bad = await runMemctx(['--dir', join(root, 'nope'), 'ls'], { cwd: root });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('nope');
    } finally {
      removeDir(root);
    }
  });
});
