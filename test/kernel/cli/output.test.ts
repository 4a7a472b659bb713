// cli/output.ts: the one place that writes to the terminal: results on stdout, diagnostics on stderr.
import { describe, expect, it } from 'vitest';
import { backgroundColorNames, Chalk, foregroundColorNames, modifierNames } from 'chalk';
import { createUi, loadChalk, type UiOptions } from '../../../src/kernel/cli/output.js';
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

  it('colours each stream at its own level', async () => {
    const { u, out } = ui({ colorErr: 1, Chalk: await loadChalk([0, 1]) });
    u.warn('w');
    u.info(u.chalk.red('plain'));
    expect(out).toEqual({ stdout: 'plain\n', stderr: '\u001b[33mwarning:\u001b[39m w\n' });
  });

  it('loads chalk only for a level above 0, and refuses colours without it', async () => {
    expect(await loadChalk([0, 0])).toBeUndefined();
    expect(await loadChalk([0, 2])).toBe(Chalk);
    expect(() => ui({ colorOut: 1 })).toThrow('colours need chalk');
  });

  it("without colours, its chalk gives what chalk's own gives at level 0", () => {
    const plain = ui().u.chalk;
    const real = new Chalk({ level: 0 });
    const values: unknown[][] = [['text'], [''], ['a', 'b'], [], [1], [undefined], [null, 2], ['line\none'], [{ toString: () => 'obj' }]];
    const names = [...modifierNames, ...foregroundColorNames, ...backgroundColorNames, 'visible'] as const;
    for (const args of values) {
      expect((plain as (...a: unknown[]) => string)(...args)).toBe((real as (...a: unknown[]) => string)(...args));
      for (const name of names) {
        expect(plain[name](...(args as string[]))).toBe(real[name](...(args as string[])));
        expect(plain[name].bold.underline(...(args as string[]))).toBe(real[name].bold.underline(...(args as string[])));
        expect(plain.dim[name](...(args as string[]))).toBe(real.dim[name](...(args as string[])));
        expect(plain.visible[name](...(args as string[]))).toBe(real.visible[name](...(args as string[])));
      }
      expect(plain.ansi256(208)(...(args as string[]))).toBe(real.ansi256(208)(...(args as string[])));
      expect(plain.bgHex('#fff').bold(...(args as string[]))).toBe(real.bgHex('#fff').bold(...(args as string[])));
      expect(plain.visible.rgb(1, 2, 3)(...(args as string[]))).toBe(real.visible.rgb(1, 2, 3)(...(args as string[])));
    }
    expect(plain.level).toBe(0);
    expect((plain as unknown as Record<string, unknown>).then).toBe((real as unknown as Record<string, unknown>).then);
    expect(typeof plain.bold.call).toBe('function');
  });
});
