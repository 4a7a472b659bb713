// summary/files.ts: the files flush reads and names (test/kernel/state/pending.test.ts holds the pending records).
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findHookSessionFile, freePath, listUserTemplates, nextDecisionId, readSourceHead, readUserTemplate } from '../../../src/kernel/summary/files.js';
import { tempDir } from '../../helpers/cli.js';

function memory(files: Record<string, string | Buffer>): string {
  const root = join(tempDir(), '.memory');
  mkdirSync(root);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(root, rel, '..'), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  return root;
}

describe('user templates', () => {
  it('lists templates/*.md by name (a link to a file counts; dot-files and other files do not), and reads one', () => {
    const root = memory({ 'templates/review.md': '## Goal\n', 'templates/.draft.md': 'x', 'templates/notes.txt': 'x', 'templates/real/incident.md': '## What\n' });
    symlinkSync(join(root, 'templates/real/incident.md'), join(root, 'templates/incident.md'));
    symlinkSync(join(root, 'nowhere.md'), join(root, 'templates/dangling.md'));
    expect(listUserTemplates(root)).toEqual(['incident', 'review']);
    expect(readUserTemplate(root, 'review')).toEqual({ path: 'templates/review.md', text: '## Goal\n' });
    expect(readUserTemplate(root, 'missing')).toBeUndefined();
    expect(listUserTemplates(memory({}))).toEqual([]);
  });

  it('a template that is not UTF-8 text is an error naming it and its line', () => {
    const root = memory({ 'templates/bad.md': Buffer.from('## Goal\n\xff\n', 'latin1') });
    expect(() => readUserTemplate(root, 'bad')).toThrow(expect.objectContaining({ file: 'templates/bad.md', line: 2, message: expect.stringMatching(/^template templates\/bad\.md: invalid UTF-8/) }));
  });
});

describe('readSourceHead', () => {
  it('the start of a text file; nothing for a binary, a folder or a missing file', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.ts'), '// Auth\nexport const a = 1;\n');
    writeFileSync(join(dir, 'img.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0]));
    expect(readSourceHead(join(dir, 'a.ts'))).toBe('// Auth\nexport const a = 1;\n');
    expect(readSourceHead(join(dir, 'a.ts'), 7)).toBe('// Auth');
    expect([readSourceHead(join(dir, 'img.png')), readSourceHead(dir), readSourceHead(join(dir, 'gone.ts'))]).toEqual([undefined, undefined, undefined]);
  });
});

describe('nextDecisionId', () => {
  it('one past the highest of the day, from file names and id: keys, archive included', () => {
    const root = memory({
      'decisions/DEC-2026-11-20-002-cache.md': '---\nname: c\n---\n',
      'archive/old.md': '---\nid: DEC-2026-11-20-007\n---\n',
      'other.md': "---\nid: 'DEC-2026-11-19-050'\n---\n",
    });
    expect(nextDecisionId(root, '2026-11-20')).toBe('DEC-2026-11-20-008');
    expect(nextDecisionId(root, '2026-11-21')).toBe('DEC-2026-11-21-001');
  });
});

describe('freePath', () => {
  it('the name, else -2, -3, …; a dangling link takes its name', () => {
    const root = memory({ 'sessions/x.md': 'a' });
    expect(freePath(root, 'sessions/y.md')).toBe('sessions/y.md');
    expect(freePath(root, 'sessions/x.md')).toBe('sessions/x-2.md');
    symlinkSync(join(root, 'gone'), join(root, 'sessions/x-2.md'));
    expect(freePath(root, 'sessions/x.md')).toBe('sessions/x-3.md');
  });
});

describe('findHookSessionFile', () => {
  it("the session file a hook or the agent wrote for this session id; never a user's file that happens to carry it", () => {
    const root = memory({
      'sessions/a.md': '---\nname: a\nsession_id: s1\n---\n',
      'sessions/b.md': '---\nname: b\nsession_id: s1\nhook_event: SessionEnd\n---\n',
      'sessions/c.md': '---\nname: c\nsession_id: 42\nwritten_by: agent\n---\n',
    });
    expect(findHookSessionFile(root, 'sessions', 's1')).toBe('sessions/b.md');
    expect(findHookSessionFile(root, 'sessions', '42')).toBe('sessions/c.md');
    expect(findHookSessionFile(root, 'sessions', 's2')).toBeUndefined();
    expect(findHookSessionFile(root, 'nowhere', 's1')).toBeUndefined();
  });
});
