// The MCP memory tool (src/commands/memory/tool.ts → actions/memory-tool.ts): over stdio through the built
// bin, then in-process for what it refuses to write.
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, closeOpened, openInProcess as open, inProcessServer } from '../../helpers/mcp.js';
import { memoryErrorText } from '../../../src/kernel/memory-errors.js';
import { MemctxError } from '../../../src/kernel/errors.js';

afterEach(closeOpened);

const memory = (client: Client, args: Record<string, unknown>) => callTool(client, 'memory', args);

describe('memctx mcp', () => {
  const server = inProcessServer();

  it('views a directory with descriptions and a file with line numbers and a range', async () => {
    const { client } = server;
    const listing = await callTool(client, 'memory', { command: 'view', path: '/memories' });
    expect(listing.isError).toBe(false);
    expect(listing.text).toMatch(/^Here're the files and directories up to 2 levels deep in \/memories, excluding hidden items and node_modules:\n/);
    expect(listing.text).toMatch(/\t\/memories\/project_auth\.md\tHow login tokens work$/m);
    expect(listing.text).not.toContain('.memctx');
    const file = await callTool(client, 'memory', { command: 'view', path: '/memories/project_auth.md', view_range: [9, 10] });
    expect(file.text).toBe("Here's the content of /memories/project_auth.md with line numbers:\n     9\tTokens are JWTs.\n    10\tThey expire after 1h.");
    const bad = await callTool(client, 'memory', { command: 'view', path: '/memories/project_auth.md', view_range: [40, -1] });
    expect(bad).toMatchObject({ isError: true });
    expect(bad.text).toContain('Invalid `view_range` parameter: [40, -1]');
  });

  it('creates a file without frontmatter: a valid one is added and MEMORY.md lists it', async () => {
    const { client, memory } = server;
    const created = await callTool(client, 'memory', { command: 'create', path: '/memories/notes/deploy.md', file_text: '# Deploys go through staging\n\nNever push to prod on Fridays.\n' });
    expect(created).toEqual({ text: 'File created successfully at: /memories/notes/deploy.md', isError: false, structured: undefined });
    const text = readFileSync(join(memory, 'notes/deploy.md'), 'utf8');
    expect(text).toMatch(/^---\nname: deploy\ndescription: Deploys go through staging\ntype: project\ncreated: \d{4}-\d\d-\d\dT[\d:]+Z\nupdated: \d{4}-\d\d-\d\dT[\d:]+Z\n---\n\n# Deploys go through staging\n/);
    expect(readFileSync(join(memory, 'MEMORY.md'), 'utf8')).toContain('(notes/deploy.md) — Deploys go through staging');
    const again = await callTool(client, 'memory', { command: 'create', path: '/memories/notes/deploy.md', file_text: 'other' });
    expect(again.isError).toBe(true);
    expect(again.text).toBe('File /memories/notes/deploy.md already exists; create never overwrites. Use str_replace or insert to change it, or delete it first.');
    expect(readFileSync(join(memory, 'notes/deploy.md'), 'utf8')).toBe(text);
  });

  it('str_replace keeps unknown frontmatter, sets updated, and refuses zero or several matches', async () => {
    const { client, memory } = server;
    const done = await callTool(client, 'memory', { command: 'str_replace', path: '/memories/project_auth.md', old_str: 'after 1h', new_str: 'after 2h' });
    expect(done.isError).toBe(false);
    expect(done.text).toMatch(/^The memory file has been edited\. Here is the snippet showing the change \(with line numbers\):\n/);
    expect(done.text).toContain('    10\tThey expire after 2h.');
    const text = readFileSync(join(memory, 'project_auth.md'), 'utf8');
    expect(text).toContain('owner: team-a\n');
    expect(text).not.toContain('2026-01-01T00:00:00Z');
    const none = await callTool(client, 'memory', { command: 'str_replace', path: '/memories/project_auth.md', old_str: 'nowhere', new_str: 'x' });
    expect(none).toMatchObject({ isError: true, text: 'No replacement was performed, old_str `nowhere` did not appear verbatim in /memories/project_auth.md.' });
    const many = await callTool(client, 'memory', { command: 'str_replace', path: '/memories/twice.md', old_str: 'same', new_str: 'x' });
    expect(many).toMatchObject({ isError: true, text: 'No replacement was performed. Multiple occurrences of old_str `same` in lines: 7, 8. Please ensure it is unique' });
    expect(readFileSync(join(memory, 'twice.md'), 'utf8')).toBe('---\nname: twice\ndescription: a word twice\ntype: project\n---\n\nsame\nsame\n');
  });

  it('insert checks insert_line against the file and refuses an edit that breaks the frontmatter', async () => {
    const { client, memory } = server;
    const before = readFileSync(join(memory, 'twice.md'), 'utf8');
    const out = await callTool(client, 'memory', { command: 'insert', path: '/memories/twice.md', insert_line: 99, insert_text: 'x' });
    expect(out).toMatchObject({ isError: true, text: 'Invalid `insert_line` parameter: 99. It should be within the range of lines of the file: [0, 9]' });
    const broken = await callTool(client, 'memory', { command: 'insert', path: '/memories/twice.md', insert_line: 2, insert_text: 'description: [unclosed' });
    expect(broken.isError).toBe(true);
    expect(broken.text).toMatch(/^Nothing written: the edit would leave \/memories\/twice\.md an invalid memory file/);
    expect(readFileSync(join(memory, 'twice.md'), 'utf8')).toBe(before);
    const ok = await callTool(client, 'memory', { command: 'insert', path: '/memories/twice.md', insert_line: 9, insert_text: 'third line\n' });
    expect(ok).toMatchObject({ isError: false, text: 'The file /memories/twice.md has been edited.' });
    expect(readFileSync(join(memory, 'twice.md'), 'utf8')).toMatch(/\nsame\nsame\n\nthird line$/);
  });

  it('renames and deletes through the store, never over another file, never MEMORY.md', async () => {
    const { client, memory } = server;
    writeFileSync(join(memory, 'old.md'), '---\nname: old\ndescription: to move\ntype: project\n---\n\nbody\n');
    expect(await callTool(client, 'memory', { command: 'rename', old_path: '/memories/old.md', new_path: '/memories/twice.md' })).toMatchObject({ isError: true, text: 'The destination /memories/twice.md already exists' });
    expect(await callTool(client, 'memory', { command: 'rename', old_path: '/memories/old.md', new_path: '/memories/archive2/new.md' })).toMatchObject({ isError: false, text: 'Successfully renamed /memories/old.md to /memories/archive2/new.md' });
    expect(existsSync(join(memory, 'old.md'))).toBe(false);
    expect(readFileSync(join(memory, 'archive2/new.md'), 'utf8')).toMatch(/^---\nname: old\ndescription: to move\ntype: project\nupdated: \S+Z\n---\n/);
    expect(readFileSync(join(memory, 'MEMORY.md'), 'utf8')).toContain('(archive2/new.md)');
    expect(await callTool(client, 'memory', { command: 'delete', path: '/memories/archive2/new.md' })).toMatchObject({ isError: false, text: 'Successfully deleted /memories/archive2/new.md' });
    expect(readFileSync(join(memory, 'MEMORY.md'), 'utf8')).not.toContain('archive2/new.md');
    expect(await callTool(client, 'memory', { command: 'delete', path: '/memories/archive2/new.md' })).toMatchObject({ isError: true, text: 'The path /memories/archive2/new.md does not exist' });
    expect((await callTool(client, 'memory', { command: 'delete', path: '/memories/MEMORY.md' })).isError).toBe(true);
    expect(await callTool(client, 'memory', { command: 'delete', path: '/memories' })).toMatchObject({ isError: true, text: 'Cannot delete the /memories directory itself' });
    expect(existsSync(join(memory, 'MEMORY.md'))).toBe(true);
  });

  it('refuses paths that leave /memories, whatever their disguise', async () => {
    const { client, dir, memory } = server;
    const outside = join(dir, 'outside.md');
    symlinkSync(dir, join(memory, 'link'));
    const cases = ['/etc/passwd', '/memories/../outside.md', '/memories/%2e%2e/outside.md', '/memories/a\0b.md', `/memories/${outside}`, '/memoriesx/a.md', '/memories/link/outside.md', '/memories/.memctx/lock'];
    for (const path of cases) {
      const out = await callTool(client, 'memory', { command: 'create', path, file_text: 'x' });
      expect(out.isError, path).toBe(true);
    }
    expect((await callTool(client, 'memory', { command: 'view', path: '/memories/../../etc/passwd' })).text).toMatch(/^Path \/memories\/\.\.\/\.\.\/etc\/passwd would escape \/memories directory/);
    expect(existsSync(outside)).toBe(false);
    expect(readdirSync(dir).sort()).toEqual(['.memory']);
    rmSync(join(memory, 'link'));
  });

  it('reports missing, wrong-typed and unknown arguments and tools as tool errors', async () => {
    const { client } = server;
    expect(await callTool(client, 'memory', { command: 'create', path: '/memories/x.md' })).toMatchObject({ isError: true, text: 'create needs file_text; it takes path, file_text' });
    const typed = await callTool(client, 'memory', { command: 'insert', path: '/memories/twice.md', insert_line: 'two', insert_text: 'x' });
    expect(typed.isError).toBe(true);
    expect(typed.text).toBe('insert_line must be a whole number of at least 0, got "two"');
    expect((await callTool(client, 'memory', { command: 'chmod', path: '/memories/x.md' })).isError).toBe(true);
    expect(await callTool(client, 'nope', {})).toMatchObject({ isError: true, text: 'unknown tool "nope"; the tools are memory, search, pack, status, flush, lint, verify' });
    expect((await callTool(client, 'memory', { command: 'create', path: '/memories/notes.txt', file_text: 'x' })).text).toMatch(/use a path ending in \.md, such as \/memories\/notes\.md$/);
  });

});

describe('the memory tool writes only what `memctx add` accepts (issue 21 item 2; the old tool wrote all of these)', () => {
  it.each([
    ['type: bogus', 'frontmatter/invalid-type', 'invalid type "bogus"; expected one of user, feedback, project, reference'],
    ['type: project\nimportance: 99', 'frontmatter/importance-range', '"importance" must be a whole number from 1 to 10 (got 99)'],
    ['type: project\nkind: whim', 'frontmatter/invalid-kind', 'unknown kind "whim"; expected one of decision, issue, state, learning, session, note'],
    ['type: project\nexpires: 2026-02-30', 'frontmatter/invalid-date', '2026-02-30'],
  ])('create with %s is refused naming the field and its allowed values', async (fields, rule, message) => {
    const { root, client } = await open();
    const answer = await memory(client, { command: 'create', path: '/memories/bad.md', file_text: `---\nname: bad\ndescription: d\n${fields}\n---\n\nbody\n` });
    expect(answer.isError).toBe(true);
    expect(answer.text).toContain(message);
    expect(answer.text).toContain(rule);
    expect(answer.text).toMatch(/^Nothing written: \/memories\/bad\.md line \d+: /);
    expect(existsSync(join(root, 'bad.md'))).toBe(false);
  });

  it('str_replace and insert may not add a problem, but may edit a file that already had one', async () => {
    const { root, client } = await open();
    const before = readFileSync(join(root, 'project_auth.md'), 'utf8');
    const raised = await memory(client, { command: 'str_replace', path: '/memories/project_auth.md', old_str: 'importance: 3', new_str: 'importance: 99' });
    expect(raised).toMatchObject({ isError: true, text: expect.stringContaining('"importance" must be a whole number from 1 to 10 (got 99)') });
    // `---` at line 0 used to turn the frontmatter into body text silently (issue 20 item 9).
    const fence = await memory(client, { command: 'insert', path: '/memories/project_auth.md', insert_line: 0, insert_text: '---' });
    expect(fence.isError).toBe(true);
    expect(fence.text).toMatch(/^Nothing written: /);
    expect(readFileSync(join(root, 'project_auth.md'), 'utf8')).toBe(before);
    writeFileSync(join(root, 'old.md'), '---\nname: old\ndescription: d\ntype: legacy\n---\n\nbody\n');
    expect((await memory(client, { command: 'str_replace', path: '/memories/old.md', old_str: 'body', new_str: 'new body' })).isError).toBe(false);
  });
});

describe('the configured types count, as for `memctx add`', () => {
  it('memctx.config.json types: [project, runbook] lets the tool write a runbook and lists them when refusing', async () => {
    const { dir, root, client } = await open();
    // A write before the configuration exists: the setup found then must not outlive the new file.
    expect((await memory(client, { command: 'create', path: '/memories/first.md', file_text: 'first\n' })).isError).toBe(false);
    expect((await memory(client, { command: 'create', path: '/memories/early.md', file_text: '---\nname: e\ndescription: d\ntype: runbook\n---\n' })).isError).toBe(true);
    writeFileSync(join(dir, 'memctx.config.json'), JSON.stringify({ types: ['project', 'runbook'] }));
    const ok = await memory(client, { command: 'create', path: '/memories/deploy.md', file_text: '---\nname: deploy\ndescription: how to deploy\ntype: runbook\n---\n\nsteps\n' });
    expect(ok.isError).toBe(false);
    expect(existsSync(join(root, 'deploy.md'))).toBe(true);
    const bad = await memory(client, { command: 'create', path: '/memories/x.md', file_text: '---\nname: x\ndescription: d\ntype: user\n---\n' });
    expect(bad.text).toContain('invalid type "user"; expected one of project, runbook');
  });
});

describe('templates/, archive/ and directories (issue 20 item 9)', () => {
  it('reads templates/ and archive/ but writes, renames and deletes nothing there; a directory delete is refused', async () => {
    const { root, client } = await open();
    mkdirSync(join(root, 'templates'));
    mkdirSync(join(root, 'archive'));
    writeFileSync(join(root, 'templates', 'session.md'), '## Goal\n');
    writeFileSync(join(root, 'archive', 'old.md'), '---\nname: old\ndescription: d\ntype: project\n---\n');
    expect((await memory(client, { command: 'view', path: '/memories/templates/session.md' })).text).toContain('## Goal');
    expect((await memory(client, { command: 'view', path: '/memories/archive/old.md' })).isError).toBe(false);
    const refusals = [
      await memory(client, { command: 'create', path: '/memories/templates/x.md', file_text: 'x' }),
      await memory(client, { command: 'str_replace', path: '/memories/templates/session.md', old_str: 'Goal', new_str: 'Aim' }),
      await memory(client, { command: 'insert', path: '/memories/archive/old.md', insert_line: 5, insert_text: 'x' }),
      await memory(client, { command: 'delete', path: '/memories/archive/old.md' }),
      await memory(client, { command: 'rename', old_path: '/memories/project_auth.md', new_path: '/memories/archive/auth.md' }),
      await memory(client, { command: 'rename', old_path: '/memories/archive/old.md', new_path: '/memories/old.md' }),
      await memory(client, { command: 'delete', path: '/memories/Templates' }),
    ];
    expect(refusals.map((r) => r.isError)).toEqual([true, true, true, true, true, true, true]);
    expect(refusals[0].text).toContain('/memories/templates/x.md is in /memories/templates/, which the memory tool may read but not change');
    expect(readdirSync(join(root, 'templates'))).toEqual(['session.md']);
    expect(readdirSync(join(root, 'archive'))).toEqual(['old.md']);
    mkdirSync(join(root, 'notes'));
    writeFileSync(join(root, 'notes', 'a.md'), '---\nname: a\ndescription: d\ntype: project\n---\n');
    expect(await memory(client, { command: 'delete', path: '/memories/notes' })).toMatchObject({ isError: true, text: expect.stringContaining('/memories/notes is a directory; delete removes one file at a time') });
    expect(existsSync(join(root, 'notes', 'a.md'))).toBe(true);
  });

  it('an error naming a host file answers in /memories terms', () => {
    const root = '/home/someone/project/.memory';
    const text = memoryErrorText(new MemctxError('cannot write the file (EACCES)', { file: `${root}/notes/a.md`, hint: `check ${root}/.memctx and /etc/passwd` }), root);
    expect(text).toBe('/memories/notes/a.md: cannot write the file (EACCES) (check /memories/.memctx and …/passwd)');
    expect(text).not.toContain('/home/');
  });
});

describe('a directory view is capped (issue 20 item 5: 10,000 files used to answer ~1 MB)', () => {
  it('10,000 files: at most 2,000 lines and 40,000 characters, then how many were left out and how to narrow', async () => {
    const { root, client } = await open();
    mkdirSync(join(root, 'bulk'));
    // The first 2,000 notes (as many as a view may show) are files of their own; the rest, past the cap, are
    // only counted: hard links to the last of those (one system call each instead of open, write, close).
    const note = (i: number) => join(root, 'bulk', `note-${String(i).padStart(5, '0')}.md`);
    for (let i = 0; i < 2_000; i++) writeFileSync(note(i), `---\nname: n${i}\ndescription: note ${i}\ntype: project\n---\n`);
    for (let i = 2_000; i < 10_000; i++) linkSync(note(1_999), note(i));
    const answer = await memory(client, { command: 'view', path: '/memories' });
    expect(answer.isError).toBe(false);
    expect(answer.text.length).toBeLessThanOrEqual(40_000 + 400);
    const lines = answer.text.split('\n');
    expect(lines.length).toBeLessThanOrEqual(2_002);
    const rows = lines.filter((l) => /\t\/memories\/./.test(l)).length;
    const left = Number(/… (\d+) more entries left out/.exec(answer.text)?.[1]);
    // Every entry is shown or counted: 10,000 notes, bulk/ and project_auth.md.
    expect(rows + left).toBe(10_002);
    expect(answer.text).toMatch(/view a subfolder \(e\.g\. \/memories\/bulk\), or use the search tool/);
  }, 60_000);
});

describe('oversized writes are refused with a tool error (issue 20 item 6)', () => {
  it('file_text over the 1 MiB a memory file may hold writes nothing and names the limit', async () => {
    const { root, client } = await open();
    const answer = await memory(client, { command: 'create', path: '/memories/big.md', file_text: 'x'.repeat(2 * 1024 * 1024) });
    expect(answer).toMatchObject({ isError: true, text: expect.stringContaining("file_text is 2097152 bytes, over memctx's 1048576-byte limit for a memory file") });
    expect(existsSync(join(root, 'big.md'))).toBe(false);
  });
});
