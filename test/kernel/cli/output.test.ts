// cli/output.ts: the one place that writes to the terminal: results on stdout, diagnostics on stderr.
import { describe, expect, it } from 'vitest';
import { createUi, type UiOptions } from '../../../src/kernel/cli/output.js';
import { MemctxError } from '../../../src/kernel/errors.js';
import { memoryTextOut } from '../../../src/kernel/markdown/escape.js';

function ui(options: Partial<UiOptions> = {}) {
  const out = { stdout: '', stderr: '' };
  const u = createUi({ stdout: { write: (t: string) => (out.stdout += t) }, stderr: { write: (t: string) => (out.stderr += t) }, colorOut: 0, colorErr: 0, quiet: false, json: false, ...options });
  return { u, out };
}

describe('createUi', () => {
  it('info lines go to stdout, except with --quiet or --json; out always', () => {
    for (const [options, expected] of [[{}, 'a\nb'], [{ quiet: true }, 'b'], [{ json: true }, 'b']] as const) {
      const { u, out } = ui(options);
      u.info('a');
      u.out('b');
      expect(out).toEqual({ stdout: expected, stderr: '' });
    }
  });

  it('warnings and quietable notes go to stderr unless --quiet; problems, errors and other notes always', () => {
    const { u, out } = ui({ quiet: true });
    u.warn('w');
    u.note('n1\n');
    u.note('n2\n', { quietable: false });
    u.problem({ path: 'a.md', line: 2, message: 'bad', hint: 'fix' });
    u.problem({ path: 'b.md', message: 'odd' }, 'warning');
    u.error(new MemctxError('failed', { file: 'c.md', hint: 'retry' }));
    u.error(new Error('plain'));
    expect(out).toEqual({ stdout: '', stderr: 'n2\na.md:2: error: bad\n  hint: fix\nb.md: warning: odd\nmemctx: error: c.md: failed\n  hint: retry\nmemctx: error: plain\n' });
    const loud = ui();
    loud.u.warn('w');
    loud.u.note('n1\n');
    expect(loud.out.stderr).toBe('warning: w\nn1\n');
  });

  it('a memory file\'s text with its controls made visible; JSON with DEL and C1 controls escaped', () => {
    const { u, out } = ui();
    const text = 'title\u001b[31m red\r\nnext\u0007\n';
    u.memoryText(text);
    u.printJson({ a: 'x\u0085y', n: 1 });
    expect(out.stdout).toBe(`${memoryTextOut(text)}{\n  "a": "x\\u0085y",\n  "n": 1\n}\n`);
    expect(out.stdout).not.toContain('\u001b');
    expect(out.stdout).toContain('\r\n');
  });

  it('colours each stream at its own level', () => {
    const { u, out } = ui({ colorErr: 1 });
    u.warn('w');
    u.info(u.chalk.red('plain'));
    expect(out).toEqual({ stdout: 'plain\n', stderr: '\u001b[33mwarning:\u001b[39m w\n' });
  });
});
