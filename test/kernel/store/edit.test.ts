/**
 * Issue 20, item 9 (the store and CLI parts): look-alike and control names, an edit that breaks the
 * frontmatter, duplicate JSON keys, and control sequences in memory text on stdout, TTY or not.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../helpers/cli.js';
import { runMemctx } from '../../helpers/run.js';
import { duplicateJsonKey } from '../../../src/kernel/json.js';
import { finishEdit, readRawText } from '../../../src/kernel/store/edit.js';
import { ParseFailure } from '../../../src/kernel/store/parse.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

const note = (name: string, body = 'body') => `---\nname: ${name}\ndescription: about ${name}\ntype: project\n---\n${body}\n`;

function memoryDir() {
  const cwd = tempDir();
  dirs.push(cwd);
  const root = join(cwd, '.memory');
  mkdirSync(root);
  writeFileSync(join(root, 'MEMORY.md'), '# Memory\n');
  writeFileSync(join(root, 'notes.md'), note('notes'));
  return { cwd, root };
}

const add = (cwd: string, path: string) => runMemctx(['add', path, '--name', 'n', '--description', 'd', '--type', 'user'], { cwd });

describe('names', () => {
  it.each([
    ['ＭＥＭＯＲＹ.md', 'looks the same as the existing MEMORY.md'],
    ['Notes.md', 'looks the same as the existing notes.md'],
    ['ｎｏｔｅｓ.md', 'looks the same as the existing notes.md'],
    ['MEMORY\u200b.md', 'contains U+200B'],
    ['evil\u202edm.txt.md', 'contains U+202E'],
    ['two\nlines.md', 'contains U+000A'],
    ['tab\there.md', 'contains U+0009'],
  ])('refuses %j (exit 2, nothing written)', async (path, why) => {
    const { cwd, root } = memoryDir();
    const before = readdirSync(root).sort();
    const result = await add(cwd, path);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(why);
    expect(result.stderr).not.toMatch(/[\u200b\u202e]/);
    expect(readdirSync(root).sort()).toEqual(before);
  });

  it('mv may change only the case of a name (the look-alike is the file being renamed)', async () => {
    const { cwd, root } = memoryDir();
    expect((await runMemctx(['mv', 'notes.md', 'Notes.md'], { cwd })).code).toBe(0);
    expect(readdirSync(root)).toContain('Notes.md');
    expect(readdirSync(root)).not.toContain('notes.md');
  });

  it('stores a new name in NFC; the NFD spelling of an existing name reaches that file', async () => {
    const { cwd, root } = memoryDir();
    const nfd = 'cafe\u0301.md';
    expect((await add(cwd, nfd)).code).toBe(0);
    expect(readdirSync(root)).toContain('caf\u00e9.md');
    expect(readdirSync(root)).not.toContain(nfd);
    const again = await add(cwd, nfd);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('already exists');
  });
});

describe('an edit that breaks the frontmatter is refused', () => {
  it('edit: a --- line put above the keys', async () => {
    const { cwd, root } = memoryDir();
    const result = await runMemctx(['edit', 'notes.md', '--old', 'name: notes', '--new', '---\nname: notes'], { cwd });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('the edit would leave the frontmatter without name, description, type');
    expect(readFileSync(join(root, 'notes.md'), 'utf8')).toBe(note('notes'));
  });

  it('finishEdit (which MCP insert uses) refuses `---` inserted at line 0 of an edited copy of the text', () => {
    const { root } = memoryDir();
    const raw = readRawText(join(root, 'notes.md'), root);
    const edited = { ...raw, text: `---\n${raw.text}` };
    expect(() => finishEdit('notes.md', edited, { mtimeMs: 0, size: 0 }, '2026-11-24')).toThrow(ParseFailure);
    // Changing a value is still fine.
    expect(finishEdit('notes.md', { ...raw, text: raw.text.replace('about notes', 'about the notes') }, { mtimeMs: 0, size: 0 }, '2026-11-24')).toContain('description: about the notes');
  });
});

describe('duplicateJsonKey', () => {
  it('finds a key repeated in one object, with its line; equal keys in different objects are fine', () => {
    expect(duplicateJsonKey('{"a": {"x": 1}, "b": {"x": 2}, "c": [{"x": 1}, {"x": 2}]}')).toBeUndefined();
    expect(duplicateJsonKey('{\n "hooks": {},\n "s": "hooks",\n "hooks": []\n}')).toEqual({ key: 'hooks', line: 4 });
    expect(duplicateJsonKey('{"a": {"k\\"q": 1, "k\\u0022q": 2}}')).toEqual({ key: 'k"q', line: 1 });
    expect(duplicateJsonKey('{"a" \n\n :1, "a":2}')).toEqual({ key: 'a', line: 3 });
  });
});

describe('memory text on stdout', () => {
  const hostile = 'title \u001b]52;c;ZXZpbA==\u0007 red \u001b[31mRED\u001b[0m \u009b2J end';
  it('show: OSC 52, colours and C1 CSI are made visible, piped or not; CRLF kept', async () => {
    const { cwd, root } = memoryDir();
    writeFileSync(join(root, 'x.md'), note('x', hostile).replace(/\n/g, '\r\n'));
    for (const tty of [false, true]) {
      const result = await runMemctx(['show', 'x.md'], { cwd, tty });
      expect(result.code).toBe(0);
      expect(result.stdout).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/);
      expect(result.stdout).toContain('\r\n');
      expect(result.stdout).toContain('title \u241b]52;c;ZXZpbA==\u2407 red \u241b[31mRED');
    }
  });

  it('--json escapes C1 controls (JSON.stringify leaves them raw); the data is unchanged', async () => {
    const { cwd, root } = memoryDir();
    writeFileSync(join(root, 'x.md'), note('x', hostile));
    const result = await runMemctx(['show', 'x.md', '--json'], { cwd });
    expect(result.stdout).not.toMatch(/[\u007f-\u009f]/);
    expect(JSON.parse(result.stdout).body).toContain(hostile);
  });
});
