// Issue 31 item 1: one hook-failure log. flush --hook, checkpoint and a bad option before either
// starts all log through kernel/state/flush-log.ts, one line shape: `<time> <label> error: <message>`,
// the message as `file:line: what (hint)` (checkpoint left out the line before).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, stateOf } from '../../helpers/cli.js';
import { hookFailureText, logHookFailure, notLoggedNote } from '../../../src/kernel/state/flush-log.js';

describe('the hook-failure log', () => {
  it('writes one line per failure, the same shape for every hook', () => {
    const dir = tempDir('memctx-hook-log-');
    const root = join(dir, '.memory');
    mkdirSync(root);
    writeFileSync(join(root, 'MEMORY.md'), '# Memory\n');
    const now = new Date('2026-11-28T12:00:00Z');
    const message = hookFailureText({ message: 'bad frontmatter', file: 'a.md', line: 3, hint: 'fix it' });
    expect(logHookFailure(root, 'Stop session=s1 checkpoint', message, now)).toBe(true);
    expect(logHookFailure(root, 'SessionEnd', hookFailureText({ message: 'no stdin' }), now)).toBe(true);
    expect(readFileSync(join(stateOf(root), 'flush.log'), 'utf8')).toBe(
      '2026-11-28T12:00:00Z Stop session=s1 checkpoint error: a.md:3: bad frontmatter (fix it)\n2026-11-28T12:00:00Z SessionEnd error: no stdin\n',
    );
  });

  it('without a memory directory nothing is logged, and stderr says why', () => {
    expect(logHookFailure(undefined, 'hook', 'x', new Date())).toBe(false);
    expect([notLoggedNote({ logged: true, root: '/r' }), notLoggedNote({ logged: false, root: '/r' }), notLoggedNote({ logged: false })]).toEqual([
      '',
      ' (not logged: the memory directory is not writable)',
      ' (not logged: no memory directory found)',
    ]);
  });
});
