import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyFixture, FIXTURES, tempDir } from '../../helpers/cli.js';
import { runCli } from '../../helpers/run.js';
import { read, snapshot } from '../../helpers/cli-util.js';

const BROKEN_STDERR = [
  'broken/alias_bomb.md:4: error: YAML aliases expand too far (a possible alias bomb); refused',
  '  hint: remove the &anchors and *aliases',
  'broken/binary.md:3: error: binary data (a NUL byte at offset 8), not a text file',
  '  hint: memory files must be UTF-8 Markdown; move or delete this file',
  'broken/duplicate_keys.md:5: error: invalid YAML: Map keys must be unique',
  '  hint: fix the YAML syntax',
  'broken/invalid_utf8.md:3: error: invalid UTF-8 (byte offset 39)',
  '  hint: re-save the file as UTF-8',
  'broken/javascript_frontmatter.md:1: error: `---javascript` (JavaScript) frontmatter is never evaluated',
  '  hint: rewrite the frontmatter as YAML (a plain `---` line)',
  'broken/js_frontmatter.md:1: error: `---js` (JavaScript) frontmatter is never evaluated',
  '  hint: rewrite the frontmatter as YAML (a plain `---` line)',
  'broken/list_frontmatter.md:1: error: frontmatter must be a mapping of `key: value` lines',
  '  hint: write the frontmatter as key: value pairs',
  'broken/malformed_yaml.md:4: error: invalid YAML: Nested mappings are not allowed in compact mappings',
  '  hint: fix the YAML syntax',
  'broken/proto_key.md:5: error: the key `__proto__` is not allowed',
  '  hint: rename or remove that key',
  'broken/unknown_alias.md:3: error: the alias *nowhere has no anchor &nowhere before it',
  '  hint: define the anchor first, or quote the value',
  'broken/unterminated.md:1: error: frontmatter opened on line 1 is never closed',
  '  hint: add a line `---` after the last frontmatter key',
  '',
].join('\n');

const BROKEN_INDEX = `# Memory

<!-- memctx:begin -->
## User

- [Saved with a BOM](bom.md) — Windows editors often add a UTF-8 byte order mark

## Reference

- [Saved with CRLF](crlf.md) — Windows line endings are still a valid memory file

## Other

- [empty](empty.md)
- [no_frontmatter](no_frontmatter.md)
<!-- memctx:end -->
`;

describe('memctx index on the shipped fixtures', () => {
  it.each([['claude-memory', 8], ['seed-memory', 17]])('%s: MEMORY.md is current, and a rebuild changes no byte', async (name, count) => {
    const check = await runCli(['--dir', join(FIXTURES, name), 'index', '--check'], { cwd: FIXTURES });
    expect(check).toEqual({ code: 0, stdout: `MEMORY.md is up to date (${count} files)\n`, stderr: '' });
    const dir = copyFixture(name);
    const before = read(join(dir, 'MEMORY.md'));
    const rebuilt = await runCli(['index'], { cwd: dir, env: { MEMCTX_DIR: dir } });
    expect(rebuilt).toEqual({ code: 0, stdout: `MEMORY.md is up to date (${count} files)\n`, stderr: '' });
    expect(read(join(dir, 'MEMORY.md'))).toBe(before);
  });
});

describe('memctx index on the broken fixture', () => {
  it('indexes the rest, reports each bad file with its line on stderr, exits 1', async () => {
    const base = tempDir();
    const dir = copyFixture('broken', base);
    const marker = join(base, 'JS_FRONTMATTER_RAN');
    const result = await runCli(['--dir', 'broken', 'index'], { cwd: base, env: { MEMCTX_JS_MARKER: marker } });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('MEMORY.md rebuilt (4 files)\n');
    expect(result.stderr).toBe(BROKEN_STDERR);
    expect(read(join(dir, 'MEMORY.md'))).toBe(BROKEN_INDEX);
    // The ---js code would have written this file (and ---javascript would have thrown).
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(join(base, 'JS_FRONTMATTER_RAN'))).toBe(false);
    expect(existsSync(join(dir, 'JS_FRONTMATTER_RAN'))).toBe(false);

    const again = await runCli(['--dir', 'broken', 'index'], { cwd: base, env: { MEMCTX_JS_MARKER: marker } });
    expect(again).toEqual({ code: 1, stdout: 'MEMORY.md is up to date (4 files)\n', stderr: BROKEN_STDERR });
    expect(read(join(dir, 'MEMORY.md'))).toBe(BROKEN_INDEX);
  });

  it('--check also reports the bad files and exits 1 when the index is current', async () => {
    const base = tempDir();
    copyFixture('broken', base);
    await runCli(['--dir', 'broken', 'index'], { cwd: base });
    const result = await runCli(['--dir', 'broken', 'index', '--check'], { cwd: base });
    expect(result).toEqual({ code: 1, stdout: 'MEMORY.md is up to date (4 files)\n', stderr: BROKEN_STDERR });
  });

  it('--json puts the problems in the JSON and nothing else on stdout', async () => {
    const base = tempDir();
    copyFixture('broken', base);
    const result = await runCli(['--dir', 'broken', '--json', 'index'], { cwd: base });
    expect(result.code).toBe(1);
    const json = JSON.parse(result.stdout);
    expect(json.changed).toBe(true);
    expect(json.files).toBe(4);
    expect(json.problems).toHaveLength(11);
    expect(json.problems[0]).toEqual({ path: 'alias_bomb.md', line: 4, message: 'YAML aliases expand too far (a possible alias bomb); refused', hint: 'remove the &anchors and *aliases' });
  });

  it('refuses the alias bomb without a huge output', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, '.memory'));
    writeFileSync(join(dir, '.memory', 'bomb.md'), readFileSync(join(FIXTURES, 'broken/alias_bomb.md')));
    for (const args of [['index'], ['ls'], ['--json', 'show', 'bomb.md']]) {
      const result = await runCli(args, { cwd: dir, timeout: 20_000 });
      expect(result.code).not.toBe(-1);
      expect(result.stdout.length + result.stderr.length).toBeLessThan(2_000);
      expect(result.stderr).toMatch(/bomb\.md:4: (error: )?YAML aliases expand too far/);
    }
  });

  it('reports a 50 MB file as too large and indexes the others', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, '.memory'));
    writeFileSync(join(dir, '.memory', 'huge.md'), Buffer.alloc(50 * 1024 * 1024, 'x'));
    writeFileSync(join(dir, '.memory', 'small.md'), '---\nname: Small\ndescription: fine\ntype: user\n---\n');
    const result = await runCli(['index'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('.memory/huge.md: error: file is 52428800 bytes, over the 1048576-byte limit for a memory file; not read\n  hint: split it into smaller memory files or move it out of the memory directory\n');
    expect(read(join(dir, '.memory', 'MEMORY.md'))).toContain('- [Small](small.md) — fine');
    const show = await runCli(['show', 'huge.md'], { cwd: dir });
    expect(show.code).toBe(2);
    expect(show.stderr).toContain('huge.md: file is 52428800 bytes');
  });

  it('keeps YAML library warnings off stderr', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, '.memory'));
    writeFileSync(join(dir, '.memory', 'k.md'), '---\nname: k\n[a, b]: 1\n---\n');
    expect(await runCli(['index'], { cwd: dir })).toEqual({ code: 0, stdout: 'MEMORY.md rebuilt (1 file)\n', stderr: '' });
  });
});

describe('MEMORY.md hand edits and markers', () => {
  it('keeps text outside the markers byte for byte through index and add', async () => {
    const dir = copyFixture('seed-memory');
    const original = read(join(dir, 'MEMORY.md'));
    const edited = original.replace('# Project memory\n', '# Project memory   \n\n> pinned note, *keep*\n').replace('- Session summaries', '- Sessions  \t\n- Session summaries') + '\n\n\ttrailing hand text';
    writeFileSync(join(dir, 'MEMORY.md'), edited);
    expect((await runCli(['--dir', dir, 'index'], { cwd: dir })).code).toBe(0);
    expect(read(join(dir, 'MEMORY.md'))).toBe(edited);
    const added = await runCli(['--dir', dir, 'add', 'project_new', '--name', 'New', '--description', 'Fresh', '--type', 'project', '--body', 'x'], { cwd: dir });
    expect(added.code).toBe(0);
    const after = read(join(dir, 'MEMORY.md'));
    expect(after.slice(0, after.indexOf('<!-- memctx:begin -->'))).toBe(edited.slice(0, edited.indexOf('<!-- memctx:begin -->')));
    expect(after.slice(after.indexOf('<!-- memctx:end -->'))).toBe(edited.slice(edited.indexOf('<!-- memctx:end -->')));
    expect(after).toContain('- [New](project_new.md) — Fresh');
  });

  it('keeps a MEMORY.md without markers above the new block, which does not list again what it lists', async () => {
    const dir = copyFixture('claude-memory');
    writeFileSync(join(dir, 'MEMORY.md'), '# Notes\n\n- [User role](user_role.md) — written by hand\n');
    const result = await runCli(['--dir', dir, 'index'], { cwd: dir });
    expect(result.code).toBe(0);
    const text = read(join(dir, 'MEMORY.md'));
    // user_role.md is the only User file: listed by hand, so the block has no User group.
    expect(text.startsWith('# Notes\n\n- [User role](user_role.md) — written by hand\n\n<!-- memctx:begin -->\n## Feedback\n')).toBe(true);
    expect(text.match(/user_role\.md/g)).toHaveLength(1);
    expect((await runCli(['--dir', dir, 'index'], { cwd: dir })).stdout).toBe('MEMORY.md is up to date (8 files)\n');
  });

  it.each([
    ['a begin marker without an end', '# M\n\n<!-- memctx:begin -->\n- stale\n', 3, 'found 1 and 0'],
    ['an end marker before the begin', '# M\n<!-- memctx:end -->\n<!-- memctx:begin -->\n', 2, 'comes before'],
    ['two blocks', '<!-- memctx:begin -->\n<!-- memctx:end -->\n<!-- memctx:begin -->\n<!-- memctx:end -->\n', 3, 'found 2 and 2'],
  ])('refuses %s with exit 2, naming the line, and writes nothing', async (_what, text, line, message) => {
    const dir = copyFixture('claude-memory');
    writeFileSync(join(dir, 'MEMORY.md'), text);
    const before = snapshot(dir);
    for (const args of [['index'], ['index', '--check']]) {
      const result = await runCli(['--dir', dir, ...args], { cwd: dir });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(`MEMORY.md:${line}: `);
      expect(result.stderr).toContain(message);
      expect(result.stderr).toContain('hint: leave exactly one begin and one end marker');
    }
    const writes = [
      ['add', 'x', '--name', 'X', '--description', 'x', '--type', 'user', '--body', 'x'],
      ['edit', 'user_role.md', '--old', 'senior backend', '--new', 'staff backend'],
      ['rm', 'user_role.md'],
      ['mv', 'user_role.md', 'user_role2.md'],
    ];
    for (const args of writes) {
      const result = await runCli(['--dir', dir, ...args], { cwd: dir });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`MEMORY.md:${line}: `);
    }
    expect(snapshot(dir)).toEqual(before);
  });
});

describe('the 200-line / 25 KB limits end to end', () => {
  it('fits many files, with overflow lines whose commands list the hidden entries', async () => {
    const dir = tempDir();
    const root = join(dir, '.memory');
    mkdirSync(join(root, 'sessions'), { recursive: true });
    const per = { user: 70, feedback: 50, project: 90, reference: 40 };
    for (const [type, n] of Object.entries(per)) {
      for (let i = 1; i <= n; i++) writeFileSync(join(root, `${type}_${String(i).padStart(3, '0')}.md`), `---\nname: ${type} ${i}\ndescription: ${type} memory number ${i}\ntype: ${type}\nimportance: ${(i % 10) + 1}\n---\n`);
    }
    for (let i = 1; i <= 30; i++) writeFileSync(join(root, `loose_${i}.md`), `loose note ${i}\n`);
    for (let d = 10; d <= 21; d++) writeFileSync(join(root, 'sessions', `2026-11-${d}T100000-s.md`), `---\nname: s${d}\ndescription: session ${d}\n---\n`);
    expect((await runCli(['index'], { cwd: dir })).code).toBe(0);
    const index = read(join(root, 'MEMORY.md'));
    const lines = index.split('\n');
    expect(lines.length - 1).toBeLessThanOrEqual(200);
    expect(Buffer.byteLength(index)).toBeLessThanOrEqual(25_000);
    const overflow = lines.filter((l) => l.startsWith('- … and '));
    expect(overflow.map((l) => l.replace(/\d+/, 'N'))).toEqual([
      '- … and N more: `memctx ls --type user --unlisted`',
      '- … and N more: `memctx ls --type feedback --unlisted`',
      '- … and N more: `memctx ls --type project --unlisted`',
      '- … and N more: `memctx ls --type reference --unlisted`',
      '- … and N older sessions: `memctx ls --kind session --unlisted`',
    ]);
    expect(lines.filter((l) => l.startsWith('- [s'))).toEqual(['- [s21](sessions/2026-11-21T100000-s.md) — session 21', '- [s20](sessions/2026-11-20T100000-s.md) — session 20', '- [s19](sessions/2026-11-19T100000-s.md) — session 19', '- [s18](sessions/2026-11-18T100000-s.md) — session 18', '- [s17](sessions/2026-11-17T100000-s.md) — session 17']);
    for (const line of overflow) {
      const [, hidden, command] = /^- … and (\d+) (?:more|older sessions): `memctx (.+)`$/.exec(line)!;
      const listed = JSON.parse((await runCli(['--json', ...command.split(' ')], { cwd: dir })).stdout) as { path: string }[];
      const shown = listed.filter((f) => index.includes(`](${f.path})`)).length;
      expect(listed.length - shown).toBe(Number(hidden));
    }
    expect((await runCli(['index', '--check'], { cwd: dir })).code).toBe(0);
  });
});

describe('index after changes that keep size and mtime', () => {
  it('sees a same-size rewrite whose mtime was put back', async () => {
    const dir = tempDir();
    const root = join(dir, '.memory');
    mkdirSync(root);
    const file = join(root, 'a.md');
    const past = new Date('2026-01-01T00:00:00Z');
    writeFileSync(file, '---\nname: A\ndescription: first\ntype: user\n---\n');
    utimesSync(file, past, past);
    expect((await runCli(['index'], { cwd: dir })).code).toBe(0);
    expect((await runCli(['index'], { cwd: dir })).stdout).toMatch(/^MEMORY\.md is up to date \(1 files?\)\n$/);
    writeFileSync(file, '---\nname: A\ndescription: other\ntype: user\n---\n');
    utimesSync(file, past, past);
    const check = await runCli(['index', '--check'], { cwd: dir });
    expect(check.code).toBe(1);
    expect(check.stderr).toContain('  + - [A](a.md) — other');
    expect((await runCli(['--json', 'ls'], { cwd: dir })).stdout).toContain('"description": "other"');
  });
});

describe('a symlinked MEMORY.md', () => {
  it('is never read or written when it leads outside the memory directory', async () => {
    const dir = tempDir();
    const root = join(dir, '.memory');
    mkdirSync(root);
    writeFileSync(join(dir, 'victim.sh'), 'export SECRET=1\n');
    symlinkSync(join(dir, 'victim.sh'), join(root, 'MEMORY.md'));
    writeFileSync(join(root, 'a.md'), '---\nname: A\n---\n');
    for (const args of [['index'], ['index', '--check'], ['add', 'b', '--name', 'B', '--description', 'd', '--type', 'user', '--body', 'x']]) {
      const result = await runCli(args, { cwd: dir });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('MEMORY.md is a symbolic link to outside the memory directory; not read or written');
    }
    expect(read(join(dir, 'victim.sh'))).toBe('export SECRET=1\n');
    expect(existsSync(join(root, 'b.md'))).toBe(false);
  });

  it('is followed when it stays inside', async () => {
    const dir = tempDir();
    const root = join(dir, '.memory');
    mkdirSync(join(root, 'docs'), { recursive: true });
    writeFileSync(join(root, 'docs', 'index.txt'), 'hand text\n');
    symlinkSync(join(root, 'docs', 'index.txt'), join(root, 'MEMORY.md'));
    writeFileSync(join(root, 'a.md'), '---\nname: A\n---\n');
    expect((await runCli(['index'], { cwd: dir })).code).toBe(0);
    expect(read(join(root, 'docs', 'index.txt'))).toBe('hand text\n\n<!-- memctx:begin -->\n## Other\n\n- [A](a.md)\n<!-- memctx:end -->\n');
  });
});

describe('a committed .memctx symlink (an older memctx kept its caches there)', () => {
  it('is never written through: state lives outside the work tree', async () => {
    const dir = tempDir();
    const root = join(dir, '.memory');
    mkdirSync(root);
    mkdirSync(join(dir, 'elsewhere'));
    symlinkSync(join(dir, 'elsewhere'), join(root, '.memctx'));
    const result = await runCli(['add', 'a', '--name', 'A', '--description', 'd', '--type', 'user', '--body', 'x'], { cwd: dir });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(existsSync(join(root, 'a.md'))).toBe(true);
    expect(readdirSync(join(dir, 'elsewhere'))).toEqual([]);
  });
});
