import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { colorLevel } from '../../../../src/kernel/cli/context.js';
import { runMemctx } from '../../../helpers/run.js';
import { tempDir } from '../../../helpers/cli.js';

const RED = '\u001b[31m';

describe('colours: --color / --no-color, FORCE_COLOR and NO_COLOR', () => {
  it('picks a level for each combination', () => {
    expect(colorLevel({}, {}, true)).toBe(1);
    expect(colorLevel({}, { TERM: 'xterm-256color' }, true)).toBe(2);
    expect(colorLevel({}, { COLORTERM: 'truecolor' }, true)).toBe(3);
    expect(colorLevel({}, {}, false)).toBe(0);
    expect(colorLevel({}, { FORCE_COLOR: '3' }, false)).toBe(3);
    expect(colorLevel({}, { FORCE_COLOR: '' }, false)).toBe(1);
    expect(colorLevel({}, { FORCE_COLOR: '0' }, true)).toBe(0);
    expect(colorLevel({}, { FORCE_COLOR: 'false', TERM: 'xterm-256color' }, true)).toBe(0);
    expect(colorLevel({}, { NO_COLOR: '1' }, true)).toBe(0);
    expect(colorLevel({ color: true }, { NO_COLOR: '1' }, false)).toBe(1);
    expect(colorLevel({ color: false }, { FORCE_COLOR: '2' }, true)).toBe(0);
  });

  it('colours a pipe when forced and a terminal not when FORCE_COLOR=0', async () => {
    const cwd = tempDir();
    try {
      const forced = await runMemctx(['ls'], { cwd, env: { FORCE_COLOR: '2' } });
      expect(forced.code).toBe(2);
      expect(forced.stderr).toContain(RED);
      expect((await runMemctx(['--color', 'ls'], { cwd, env: {} })).stderr).toContain(RED);
      expect((await runMemctx(['ls'], { cwd, env: { FORCE_COLOR: '0' }, tty: true })).stderr).not.toContain('\u001b[');
      expect((await runMemctx(['--no-color', 'ls'], { cwd, env: { FORCE_COLOR: '3' } })).stderr).not.toContain('\u001b[');
      expect((await runMemctx(['ls'], { cwd, env: { NO_COLOR: undefined }, tty: true })).stderr).toContain(RED);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});
