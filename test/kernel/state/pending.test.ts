/**
 * Pending summaries are input (issue 30, item 5): a record `flush --hook` kept, or one a repository
 * ships, is checked when it is folded in; a bad one is set aside once as NAME.json.rejected, named in
 * a warning, and never stops the write that folds it.
 */
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, stateOf } from '../../helpers/cli.js';
import { runMemctx } from '../../helpers/run.js';
import { checkPendingRecord, parsePendingRecord } from '../../../src/kernel/state/pending.js';
import { savePendingFlush } from '../../../src/kernel/summary/files.js';

function project() {
  const cwd = tempDir();
  const root = join(cwd, '.memory');
  mkdirSync(join(root, 'sessions'), { recursive: true });
  writeFileSync(join(root, 'MEMORY.md'), '<!-- memctx:begin -->\n<!-- memctx:end -->\n');
  return { cwd, root };
}

/** Where the records live (the one line to change when the folder moves). */
const pendingDir = (root: string) => join(stateOf(root), 'pending');

function plant(root: string, name: string, record: unknown): string {
  mkdirSync(pendingDir(root), { recursive: true });
  const abs = join(pendingDir(root), name);
  writeFileSync(abs, typeof record === 'string' ? record : JSON.stringify(record));
  return abs;
}

const good = { path: 'sessions/2026-11-28T040000-good.md', text: '---\nname: good\ndescription: kept\ntype: project\n---\n\nGood summary.\n', dir: 'sessions' };
const add = (cwd: string, name = 'n.md') => runMemctx(['add', name, '--name', 'n', '--description', 'd', '--type', 'user'], { cwd });
const sessions = (root: string) => readdirSync(join(root, 'sessions')).sort();

describe('a bad pending record never blocks a write', () => {
  it.each([
    ['a `..` path', { ...good, path: 'sessions/../../escaped.md' }, /its path "sessions\/\.\.\/\.\.\/escaped\.md" is not a plain \.md name in sessions\//],
    ['text over 1 MiB', { ...good, text: 'x'.repeat(1024 * 1024 + 1) }, /its text is 1048577 bytes, over the 1048576-byte limit/],
    ['a NUL', { ...good, text: 'a\u0000b' }, /control character \(U\+0000\)/],
  ])('%s: `add` writes, warns naming the record, and sets it aside', async (_what, record, reason) => {
    const { cwd, root } = project();
    const abs = plant(root, 'a.json', record);
    const result = await add(cwd);
    expect(result.code).toBe(0);
    expect(existsSync(join(root, 'n.md'))).toBe(true);
    expect(result.stderr).toContain(`pending summary ${abs} not written:`);
    expect(result.stderr).toMatch(reason);
    expect(result.stderr).toContain(`set aside as ${abs}.rejected`);
    expect(readdirSync(pendingDir(root))).toEqual(['a.json.rejected']);
    expect(existsSync(join(cwd, 'escaped.md'))).toBe(false);
    expect(sessions(root)).toEqual([]);
    // Set aside once: the next write neither warns again nor stops.
    const again = await add(cwd, 'm.md');
    expect(again).toMatchObject({ code: 0, stderr: '' });
  });

  it('`index` folds the good record, sets the bad one aside and rebuilds', async () => {
    const { cwd, root } = project();
    plant(root, '1-bad.json', { ...good, text: 'x'.repeat(1024 * 1024 + 1) });
    plant(root, '2-good.json', good);
    const result = await runMemctx(['index'], { cwd });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`${join(pendingDir(root), '1-bad.json')} not written`);
    expect(sessions(root)).toEqual(['2026-11-28T040000-good.md']);
    expect(readFileSync(join(root, 'MEMORY.md'), 'utf8')).toContain('sessions/2026-11-28T040000-good.md');
    expect(readdirSync(pendingDir(root))).toEqual(['1-bad.json.rejected']);
  });

  it('`flush --hook` writes its summary past a record with a NUL, and logs the warning', async () => {
    const { cwd, root } = project();
    plant(root, 'a.json', { ...good, text: 'a\u0000b' });
    const input = JSON.stringify({ session_id: 'sess-1', cwd, hook_event_name: 'SessionEnd', reason: 'exit' });
    const result = await runMemctx(['flush', '--hook', '--goal', 'Ship the fix'], { cwd, input });
    expect(result.code).toBe(0);
    expect(sessions(root)).toHaveLength(1);
    expect(readFileSync(join(root, 'sessions', sessions(root)[0]), 'utf8')).toContain('Ship the fix');
    expect(readFileSync(join(stateOf(root), 'flush.log'), 'utf8')).toContain('warning: pending summary');
    expect(readdirSync(pendingDir(root))).toEqual(['a.json.rejected']);
  });
});

describe('a pending record writes only a new file in sessions/', () => {
  it.each([
    ['templates/flush.md', { ...good, path: 'templates/flush.md' }, 'templates/flush.md'],
    ['.memctx/', { ...good, path: '.memctx/x.md' }, '.memctx/x.md'],
    ['MEMORY-2.md', { ...good, path: 'MEMORY-2.md' }, 'MEMORY-2.md'],
    ['another template folder', { ...good, dir: 'templates' }, 'templates'],
  ])('a record aimed at %s is set aside, nothing written there', async (_what, record, target) => {
    const { cwd, root } = project();
    plant(root, 'a.json', record);
    const result = await add(cwd);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('pending summary');
    expect(existsSync(join(root, target))).toBe(false);
    expect(sessions(root)).toEqual([]);
  });

  it('never replaces the file of the same session id: a new file is written beside it', async () => {
    const { cwd, root } = project();
    const mine = '---\nname: s\ndescription: mine\ntype: project\nhook_event: SessionEnd\nsession_id: sess-1\n---\n\nMy own summary.\n';
    writeFileSync(join(root, 'sessions', 'mine.md'), mine);
    plant(root, 'a.json', { ...good, sessionId: 'sess-1' });
    expect((await add(cwd)).code).toBe(0);
    expect(readFileSync(join(root, 'sessions', 'mine.md'), 'utf8')).toBe(mine);
    expect(sessions(root)).toEqual(['2026-11-28T040000-good.md', 'mine.md']);
  });

  it('never writes over an existing entry, a dangling link included', async () => {
    const { cwd, root } = project();
    symlinkSync(join(cwd, 'nowhere.md'), join(root, 'sessions', '2026-11-28T040000-good.md'));
    plant(root, 'a.json', good);
    expect((await add(cwd)).code).toBe(0);
    expect(lstatSync(join(root, 'sessions', '2026-11-28T040000-good.md')).isSymbolicLink()).toBe(true);
    expect(existsSync(join(cwd, 'nowhere.md'))).toBe(false);
    expect(readFileSync(join(root, 'sessions', '2026-11-28T040000-good-2.md'), 'utf8')).toBe(good.text);
  });

  it('a record that is a link to an outside JSON file is not followed: set aside, its text written nowhere', async () => {
    const { cwd, root } = project();
    const outside = join(tempDir(), 'outside.json');
    writeFileSync(outside, JSON.stringify({ ...good, text: 'OUTSIDE TEXT\n' }));
    mkdirSync(pendingDir(root), { recursive: true });
    symlinkSync(outside, join(pendingDir(root), 'a.json'));
    const result = await add(cwd);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('it is a symbolic link');
    expect(sessions(root)).toEqual([]);
    expect(lstatSync(join(pendingDir(root), 'a.json.rejected')).isSymbolicLink()).toBe(true);
    expect(readFileSync(outside, 'utf8')).toContain('OUTSIDE TEXT');
  });

  it('a record that is a folder or not JSON is set aside', async () => {
    const { cwd, root } = project();
    mkdirSync(join(pendingDir(root), 'dir.json'), { recursive: true });
    plant(root, 'text.json', 'not json');
    const result = await add(cwd);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('dir.json not written: it is not a regular file');
    expect(result.stderr).toContain('text.json not written: it is not UTF-8 JSON');
    expect(readdirSync(pendingDir(root)).sort()).toEqual(['dir.json.rejected', 'text.json.rejected']);
  });
});

describe('checkPendingRecord', () => {
  it('takes a plain session file and refuses every other target, shape and text', () => {
    expect(checkPendingRecord(good)).toEqual({ record: good });
    expect(checkPendingRecord({ ...good, sessionId: 's' })).toEqual({ record: { ...good, sessionId: 's' } });
    const reason = (value: unknown) => ('reason' in checkPendingRecord(value) ? (checkPendingRecord(value) as { reason: string }).reason : 'ok');
    expect(reason({ ...good, path: 'sessions/sub/x.md' })).toBe('its path "sessions/sub/x.md" is not a plain .md name in sessions/');
    expect(reason({ ...good, path: 'sessions/.hidden.md' })).toBe('its path "sessions/.hidden.md" is not a plain .md name in sessions/');
    expect(reason({ ...good, path: 'sessions/x.txt' })).toBe('its path "sessions/x.txt" is not a plain .md name in sessions/');
    expect(reason({ ...good, text: 'a\u001b[31mb' })).toBe('its text holds a control character (U+001B)');
    expect(reason({ ...good, text: 'a\u009bb' })).toBe('its text holds a control character (U+009B)');
    expect(reason({ ...good, text: 'tab\tcr\r\nlf\n' })).toBe('ok');
    expect(reason({ ...good, sessionId: 3 })).toBe('its sessionId is not plain text');
    expect(reason([])).toBe('it is not a pending summary (an object with the strings path, text and dir)');
    expect(reason({ path: 'sessions/x.md', dir: 'sessions' })).toBe('it is not a pending summary (an object with the strings path, text and dir)');
    expect(parsePendingRecord(Buffer.from([0x7b, 0xff, 0x7d]))).toMatchObject({ reason: expect.stringMatching(/^it is not UTF-8 JSON/) });
  });

  it('is checked when a record is kept: a bad one is refused, nothing written', async () => {
    const { root } = project();
    await expect(savePendingFlush(root, { ...good, path: 'MEMORY-2.md' }, new Date())).rejects.toThrow('the summary could not be kept for a later write: its path "MEMORY-2.md" is not a plain .md name in sessions/');
    expect(existsSync(pendingDir(root))).toBe(false);
    const kept = await savePendingFlush(root, good, new Date('2026-11-28T04:00:00Z'));
    expect(kept.startsWith(pendingDir(root))).toBe(true);
    expect(JSON.parse(readFileSync(kept, 'utf8'))).toEqual(good);
  });
});
