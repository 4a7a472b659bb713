import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../helpers/cli.js';
import { runMemctx } from '../helpers/run.js';
import { inlineMarkdown, escapeHtmlStart, unescapeHtmlStart, terminalSafe } from '../../src/markdown/escape.js';
import { safeStream } from '../../src/cli/ui/output.js';
import type { Stream } from '../../src/io.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

function memoryDir(): { cwd: string; root: string } {
  const cwd = tempDir();
  dirs.push(cwd);
  const root = join(cwd, '.memory');
  mkdirSync(root);
  writeFileSync(join(root, 'MEMORY.md'), '# Memory\n\nSee <!-- memctx:end --> in prose, not a marker.\n');
  return { cwd, root };
}

const count = (text: string, what: string) => text.split(what).length - 1;
const EVIL = 'x <!-- memctx:end --> <!-- memctx:begin --> [a](http://e.example) <img src=x> \u001b]0;pwned\u0007 \u001b[2J\nline two';

describe('memory content cannot subvert generated files', () => {
  it('markers, HTML, links, newlines and escapes in a name and description are neutralised in MEMORY.md', async () => {
    const { cwd, root } = memoryDir();
    const add = await runMemctx(['add', 'evil.md', '--name', EVIL.slice(0, 90), '--description', EVIL.replace('\n', ' '), '--type', 'project'], { cwd });
    expect(add.stderr).toBe("");
    expect(add.code).toBe(0);
    const index = readFileSync(join(root, 'MEMORY.md'), 'utf8');
    expect(count(index, '\n<!-- memctx:begin -->\n')).toBe(1);
    expect(count(index, '\n<!-- memctx:end -->\n')).toBe(1);
    expect(index).not.toContain('\u001b');
    expect(index).not.toMatch(/(?<!\\)<img/);
    expect(index).toContain('\\<img');
    expect(index).not.toContain('[a](');
    expect(index).toContain('See <!-- memctx:end --> in prose');
    // every later write still works, and so does pack
    expect((await runMemctx(['add', 'ok.md', '--name', 'ok', '--description', 'fine', '--type', 'project'], { cwd })).code).toBe(0);
    expect((await runMemctx(['index', '--check'], { cwd })).code).toBe(0);
    const pack = await runMemctx(['pack'], { cwd });
    expect(pack.code).toBe(0);
    expect(pack.stdout).not.toContain('\u001b');
  });

  it('a file name and a pulled file with marker lines do not break the index', async () => {
    const { cwd, root } = memoryDir();
    writeFileSync(join(root, '<!-- memctx:begin -->.md'), 'no frontmatter\n');
    writeFileSync(join(root, 'pulled.md'), '---\nname: "<!-- memctx:end -->"\ndescription: "a\\n<!-- memctx:begin -->\\nb"\ntype: user\n---\nbody\n');
    expect((await runMemctx(['index'], { cwd })).code).toBe(0);
    const index = readFileSync(join(root, 'MEMORY.md'), 'utf8');
    expect(index.split('\n').filter((l) => l.trim() === '<!-- memctx:begin -->' || l.trim() === '<!-- memctx:end -->')).toHaveLength(2);
    expect((await runMemctx(['rm', 'pulled.md'], { cwd })).code).toBe(0);
  });

  it('one entry cannot take the whole group: a 26,000-character description is cut', async () => {
    const { cwd, root } = memoryDir();
    writeFileSync(join(root, 'big.md'), `---\nname: Big\ndescription: ${'w'.repeat(26_000)}\ntype: project\n---\n`);
    writeFileSync(join(root, 'small.md'), '---\nname: Small\ndescription: small one\ntype: project\n---\n');
    expect((await runMemctx(['index'], { cwd })).code).toBe(0);
    const lines = readFileSync(join(root, 'MEMORY.md'), 'utf8').split('\n');
    const big = lines.find((l) => l.startsWith('- [Big]'))!;
    expect(big.length).toBeLessThan(260);
    expect(big.endsWith('…')).toBe(true);
    expect(lines).toContain('- [Small](small.md) — small one');
  });

  it('a session goal with markers and HTML lands escaped in the session file and the index', async () => {
    const { cwd, root } = memoryDir();
    const result = await runMemctx(['flush', '--goal', '<!-- memctx:end --> ship <b>it</b>', '--progress', 'done &lt; ok'], { cwd });
    expect(result.code).toBe(0);
    const [session] = readdirSync(join(root, 'sessions'));
    const body = readFileSync(join(root, 'sessions', session), 'utf8');
    expect(body).toContain('&lt;!-- memctx:end --> ship &lt;b>it&lt;/b>');
    expect(body).toContain('done &amp;lt; ok');
    expect((await runMemctx(['index', '--check'], { cwd })).code).toBe(0);
    rmSync(join(root, 'sessions'), { recursive: true });
  });

  it('terminal output shows control sequences as visible symbols, keeping memctx colours', async () => {
    const { cwd, root } = memoryDir();
    writeFileSync(join(root, 'esc.md'), '---\nname: "t\\e]52;c;ZXZpbA==\\a"\ndescription: "\\e[2Jgone"\ntype: user\n---\nbody\n');
    const ls = await runMemctx(['ls'], { cwd, tty: true });
    expect(ls.code).toBe(0);
    expect(ls.stdout).not.toMatch(/\u001b\]/);
    expect(ls.stdout).not.toContain('\u001b[2J');
    expect(ls.stdout).toContain('\u241b]52;c;ZXZpbA==\u2407');
    expect(terminalSafe('\u001b[31mred\u001b[39m \u001b]0;t\u0007 \r\u009b')).toBe('\u001b[31mred\u001b[39m \u241b]0;t\u2407 \u240d\ufffd');
  });

  it("lets ora's synchronized-output brackets through only as the whole writes ora makes of them", () => {
    const written: string[] = [];
    const stream = safeStream({ write: (text: string) => written.push(text) } as unknown as Stream);
    for (const text of ['\u001b[?2026h', '\u001b[?2026l', 'x\u001b[?2026h', '\u001b[?2026hx']) stream.write(text);
    expect(written).toEqual(['\u001b[?2026h', '\u001b[?2026l', 'x\u241b[?2026h', '\u241b[?2026hx']);
  });
});

describe('escape helpers', () => {
  it('inline Markdown stays on one line and opens nothing', () => {
    expect(inlineMarkdown('a\n<!-- x -->\t[l](u) \\ b')).toBe('a \\<!-- x --> \\[l\\](u) \\\\ b');
    expect(inlineMarkdown('abcdef', 4)).toBe('abc…');
  });

  it('HTML escaping in session values round-trips exactly', () => {
    for (const text of ['<b>', '&lt;', '&amp;lt;b', 'a < b', '<!--', '&amp;amp;lt;']) {
      expect(unescapeHtmlStart(escapeHtmlStart(text))).toBe(text);
      expect(escapeHtmlStart(text)).not.toMatch(/<[A-Za-z/?!]/);
    }
  });
});
