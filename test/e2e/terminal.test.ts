import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateCorpus } from '../../bench/corpus.js';
import { BIN, tempDir } from '../helpers/cli.js';

/**
 * The terminal paths (the pack spinner) under a real pseudo-terminal: util-linux `script` gives the
 * bin a tty on stdin, stdout and stderr. Pipes, hooks and CI never take these paths, so nothing
 * else tests them. MEMCTX_SPINNER_DELAY_MS=0 shows the spinner at once, so a small corpus will do.
 */
const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;

function inTerminal(cwd: string, setup: string, env: Record<string, string>): { code: number; screen: string; bundle: string } {
  const out = join(cwd, 'bundle.md');
  const command = `${setup} ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} pack > ${JSON.stringify(out)}; echo "exit=$?"`;
  const result = spawnSync('script', ['-qec', command, '/dev/null'], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, MEMCTX_DIR: '', NO_COLOR: '1', FORCE_COLOR: '', MEMCTX_SPINNER_DELAY_MS: '0', TERM: 'xterm-256color', ...env },
    timeout: 20_000,
  });
  const screen = result.stdout;
  const code = Number(/exit=(\d+)/.exec(screen)?.[1] ?? -1);
  return { code, screen, bundle: code === -1 ? '' : readFileSync(out, 'utf8') };
}

describe.skipIf(!hasScript)('pack in a terminal', () => {
  const cwd = tempDir();
  generateCorpus(join(cwd, '.memory'), 400);

  it('shows the spinner and finishes on an 80-column terminal (ora wrapped around the escaping stream)', () => {
    const run = inTerminal(cwd, 'stty cols 80 rows 24;', {});
    expect(run.screen).not.toContain('RangeError');
    expect(run.code).toBe(0);
    expect(run.screen).toContain('counting tokens');
    expect(run.screen).toMatch(/bundle: [\d,]+ of 25,000 tokens/);
    expect(run.bundle).toContain('note_');
    // ora's synchronized-output brackets reach the terminal as escapes, not as visible ␛[?2026h text.
    expect(run.screen).toContain('\u001b[?2026h');
    expect(run.screen).not.toContain('\u241b');
  });

  it('shows the spinner on a 20-column terminal', () => {
    const run = inTerminal(cwd, 'rm -rf .memory/.memctx; stty cols 20 rows 10;', {});
    expect(run.code).toBe(0);
    expect(run.screen).toContain('counting tokens');
    expect(run.bundle).toContain('note_');
  });

  it('shows no spinner with TERM=dumb, nor on a terminal of unknown width (0 columns)', () => {
    for (const [setup, env] of [['rm -rf .memory/.memctx; stty cols 80 rows 24;', { TERM: 'dumb' }], ['rm -rf .memory/.memctx; stty cols 0 rows 0;', {}]] as const) {
      const run = inTerminal(cwd, setup, env);
      expect(run.code).toBe(0);
      expect(run.screen).not.toContain('counting tokens');
      expect(run.screen).toMatch(/bundle: [\d,]+ of 25,000 tokens/);
      expect(run.bundle).toContain('note_');
    }
  });
});
