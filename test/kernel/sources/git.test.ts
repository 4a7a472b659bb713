import { spawnSync } from 'node:child_process';
import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sessionGitChanges } from '../../../src/kernel/sources/git.js';
import { tempDir } from '../../helpers/cli.js';

describe('sessionGitChanges', () => {
  it('keeps only the work-tree changes made since the session started, and none without a start', () => {
    const dir = tempDir('memctx-session-git-');
    spawnSync('git', ['init', '-q', '-b', 'main', dir]);
    writeFileSync(join(dir, 'before.md'), 'left by init\n');
    writeFileSync(join(dir, 'during.js'), 'export const a = 1;\n');
    const start = new Date('2026-11-20T10:00:00Z');
    utimesSync(join(dir, 'before.md'), new Date('2026-11-20T09:59:59Z'), new Date('2026-11-20T09:59:59Z'));
    utimesSync(join(dir, 'during.js'), new Date('2026-11-20T10:05:00Z'), new Date('2026-11-20T10:05:00Z'));
    const env = { PATH: process.env.PATH };
    const since = sessionGitChanges(dir, start.toISOString(), env, 5_000);
    expect(since?.changes.map((c) => c.path)).toEqual(['during.js']);
    // A start to the second: a file written within that second (before the first line) is not the session's.
    utimesSync(join(dir, 'before.md'), new Date('2026-11-20T10:00:00.400Z'), new Date('2026-11-20T10:00:00.400Z'));
    expect(sessionGitChanges(dir, '2026-11-20T10:00:00Z', env, 5_000)?.changes.map((c) => c.path)).toEqual(['during.js']);
    const unknown = sessionGitChanges(dir, undefined, env, 5_000);
    expect(unknown?.changes).toEqual([]);
  });
});
