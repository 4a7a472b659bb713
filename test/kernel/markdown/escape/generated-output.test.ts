import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../../helpers/cli.js';
import { runMemctx } from '../../../helpers/run.js';
import { inlineMarkdown, escapeHtmlStart, unescapeHtmlStart, terminalSafe } from '../../../../src/kernel/markdown/escape.js';
import { safeStream } from '../../../../src/kernel/cli/safe-io.js';
import type { Stream } from '../../../../src/kernel/io.js';

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

describe('SGR escapes in hand-written memory text (issue 30, item 8)', () => {
  it('reach neither a pipe nor a terminal raw from ls and search: shown as visible symbols', async () => {
    const { cwd, root } = memoryDir();
    writeFileSync(join(root, 'red.md'), '---\nname: "Red \\e[31malert\\e[0m"\ndescription: "\\e[1mbold\\e[0m retry policy \\u009b2J"\ntype: user\n---\nretry policy body\n');
    for (const tty of [false, true]) {
      const ls = await runMemctx(['ls'], { cwd, tty });
      expect(ls.code).toBe(0);
      expect(ls.stdout).toContain('red.md  user  -  -  Red \u241b[31malert\u241b[0m — \u241b[1mbold\u241b[0m retry policy \ufffd2J\n');
      const search = await runMemctx(['search', 'retry'], { cwd, tty });
      expect(search.code).toBe(0);
      expect(search.stdout).toContain('red.md  Red \u241b[31malert\u241b[0m — \u241b[1mbold\u241b[0m retry policy \ufffd2J\n');
      for (const out of [ls.stdout, search.stdout]) expect(out.replace(/\u001b\[1m(score|path|name| )+\u001b\[22m/, '')).not.toMatch(/[\u001b\u009b]/);
    }
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

describe('control characters in frontmatter values memctx writes (issue 30, item 8)', () => {
  it('a C1 CSI (U+009B) and other controls from a transcript are made visible in the flushed description, not written raw', async () => {
    const { cwd, root } = memoryDir();
    const lines = [
      { type: 'user', cwd, message: { role: 'user', content: 'Fix the \u009b31m parser \u0085 and \u007f now' } },
      { type: 'assistant', cwd, message: { role: 'assistant', id: 'm1', content: [{ type: 'text', text: 'Done.' }] } },
    ];
    writeFileSync(join(cwd, 't.jsonl'), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    expect((await runMemctx(['flush', '--transcript', 't.jsonl'], { cwd })).code).toBe(0);
    const [file] = readdirSync(join(root, 'sessions'));
    const text = readFileSync(join(root, 'sessions', file), 'utf8');
    const head = text.slice(0, text.indexOf('\n---\n'));
    expect(head).toContain('\ndescription: Fix the \ufffd31m parser \ufffd and now\n');
    expect(head).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });

  it('add and a set key write controls as visible symbols in every value', async () => {
    const { newFrontmatter, setFrontmatterKeys } = await import('../../../../src/kernel/store/serialize.js');
    expect(newFrontmatter({ name: 'a\u001b[31mb', tags: ['x\u009by'] })).toBe('name: a\u241b[31mb\ntags: [x\ufffdy]');
    expect(setFrontmatterKeys('name: a\n', { description: 'c\u009b2Jd' })).toMatch(/^name: a\ndescription: "?c\ufffd2Jd"?$/);
  });
});
