import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeText, DecodeFailure, firstInvalidUtf8 } from '../../../src/kernel/store/decode.js';
import { listMemoryPaths, MAX_FILE_BYTES, readMemoryFile, scanMemoryDir } from '../../../src/kernel/store/scan.js';
import { copyFixture, FIXTURES, tempDir, stateOf } from '../../helpers/cli.js';

describe('scanMemoryDir on the broken fixture', () => {
  const scan = scanMemoryDir(join(FIXTURES, 'broken'));

  it('reads the valid files', () => {
    expect(scan.files.map((f) => [f.path, f.name, f.type ?? null])).toEqual([
      ['bom.md', 'Saved with a BOM', 'user'],
      ['crlf.md', 'Saved with CRLF', 'reference'],
      ['empty.md', 'empty', null],
      ['no_frontmatter.md', 'no_frontmatter', null],
    ]);
  });

  it('reports every bad file with its line, and never throws', () => {
    expect(scan.problems.map((p) => [p.path, p.line ?? null])).toEqual([
      ['alias_bomb.md', 4],
      ['binary.md', 3],
      ['duplicate_keys.md', 5],
      ['invalid_utf8.md', 3],
      ['javascript_frontmatter.md', 1],
      ['js_frontmatter.md', 1],
      ['list_frontmatter.md', 1],
      ['malformed_yaml.md', 4],
      ['proto_key.md', 5],
      ['unknown_alias.md', 3],
      ['unterminated.md', 1],
    ]);
    for (const problem of scan.problems) {
      expect(problem.message.length).toBeGreaterThan(0);
      expect(problem.hint).toBeTruthy();
    }
  });

  it('says why each bad file was refused', () => {
    const why = Object.fromEntries(scan.problems.map((p) => [p.path, p.message]));
    expect(why['binary.md']).toBe('binary data (a NUL byte at offset 8), not a text file');
    expect(why['invalid_utf8.md']).toBe('invalid UTF-8 (byte offset 39)');
    expect(why['alias_bomb.md']).toBe('YAML aliases expand too far (a possible alias bomb); refused');
    expect(why['proto_key.md']).toBe('the key `__proto__` is not allowed');
    expect(why['unknown_alias.md']).toBe('the alias *nowhere has no anchor &nowhere before it');
  });
});

describe('listMemoryPaths', () => {
  it('lists .md files only, skipping MEMORY.md, dot-files, .memctx, templates and archive', () => {
    const root = copyFixture('seed-memory');
    mkdirSync(join(root, '.memctx'), { recursive: true });
    writeFileSync(join(stateOf(root), 'cache.md'), 'x');
    mkdirSync(join(root, 'templates'), { recursive: true });
    writeFileSync(join(root, 'templates', 'session.md'), 'x');
    writeFileSync(join(root, '.hidden.md'), 'x');
    writeFileSync(join(root, 'notes.txt'), 'x');
    mkdirSync(join(root, '.git'));
    writeFileSync(join(root, '.git', 'x.md'), 'x');
    const paths = listMemoryPaths(root);
    expect(paths).toEqual([
      'feedback_testing.md', 'project_auth.md', 'project_db.md', 'project_login_bug.md', 'reference_links.md', 'scratch_notes.md',
      'sessions/2026-11-14T091500-db-choice.md', 'sessions/2026-11-15T140200-migrations.md', 'sessions/2026-11-17T103000-users-table.md',
      'sessions/2026-11-18T162000-backfill.md', 'sessions/2026-11-19T110500-jwt-issuing.md', 'sessions/2026-11-20T173000-safari-bug.md',
      'sessions/2026-11-21T153012-auth-refactor.md',
      'tasks/auth-refactor/notes.md', 'tasks/auth-refactor/refresh-rotation.md', 'tasks/flaky-ci/notes.md', 'user_prefs.md',
    ]);
    expect(listMemoryPaths(root, { includeArchive: true })).toContain('archive/project_old-sessions.md');
  });
});

describe('readMemoryFile limits and links', () => {
  it('refuses a 50 MB file with a size error and does not read it', () => {
    const root = tempDir('memctx-big-');
    writeFileSync(join(root, 'huge.md'), Buffer.alloc(50 * 1024 * 1024, 'a'));
    writeFileSync(join(root, 'ok.md'), '---\nname: ok\n---\n');
    const scan = scanMemoryDir(root);
    expect(scan.files.map((f) => f.path)).toEqual(['ok.md']);
    expect(scan.problems).toEqual([
      {
        path: 'huge.md',
        message: `file is ${50 * 1024 * 1024} bytes, over the ${MAX_FILE_BYTES}-byte limit for a memory file; not read`,
        hint: 'split it into smaller memory files or move it out of the memory directory',
      },
    ]);
  });

  it('reads symlinked files inside the directory, reports those that lead outside, and does not walk a symlinked directory', () => {
    const base = tempDir('memctx-links-');
    const root = join(base, '.memory');
    mkdirSync(join(base, 'outside'));
    mkdirSync(root);
    writeFileSync(join(base, 'outside', 'secret.md'), '---\nname: secret\n---\n');
    symlinkSync(join(base, 'outside', 'secret.md'), join(root, 'secret-link.md'));
    symlinkSync(join(base, 'outside'), join(root, 'outside-dir'));
    writeFileSync(join(root, 'real.md'), '---\nname: real\n---\n');
    symlinkSync(join(root, 'real.md'), join(root, 'alias.md'));
    const scan = scanMemoryDir(root);
    expect(scan.files.map((f) => f.path)).toEqual(['alias.md', 'real.md']);
    expect(scan.problems).toEqual([{ path: 'secret-link.md', message: 'symbolic link to a file outside the memory directory; not read', hint: 'replace the link with a copy of the file' }]);
    // Read directly, a link that leaves the directory is still refused.
    expect(readMemoryFile(root, 'secret-link.md')).toMatchObject({ message: 'symbolic link to a file outside the memory directory; not read' });
    expect(readMemoryFile(root, 'alias.md')).toMatchObject({ name: 'real' });
  });

  it('reports a file that vanished between listing and reading', () => {
    const root = tempDir('memctx-gone-');
    expect(readMemoryFile(root, 'gone.md')).toMatchObject({ path: 'gone.md', message: 'cannot read the file (ENOENT)' });
  });
});

describe('decodeText', () => {
  const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));

  it('keeps a BOM for the parser to see', () => {
    expect(decodeText(bytes([0xef, 0xbb, 0xbf], 'a'))).toBe('\uFEFFa');
  });

  it.each([
    ['a Latin-1 byte', bytes('l1\nl2 caf', [0xe9], '\n'), 2, 9],
    ['an overlong encoding', bytes('x\n\ny', [0xc0, 0xaf]), 3, 4],
    ['an encoded surrogate', bytes([0xed, 0xa0, 0x80]), 1, 0],
    ['a sequence cut off at the end', bytes('ok\n', [0xe2, 0x82]), 2, 3],
    ['a code point above U+10FFFF', bytes([0xf4, 0x90, 0x80, 0x80]), 1, 0],
  ])('refuses %s with its line', (_what, buf, line, offset) => {
    expect(firstInvalidUtf8(buf)).toBe(offset);
    try {
      decodeText(buf);
      throw new Error('decoded');
    } catch (err) {
      expect(err).toBeInstanceOf(DecodeFailure);
      expect((err as DecodeFailure).line).toBe(line);
      expect((err as DecodeFailure).message).toBe(`invalid UTF-8 (byte offset ${offset})`);
    }
  });

  it('refuses a NUL byte as binary', () => {
    expect(() => decodeText(bytes('a\nb', [0]))).toThrow('binary data (a NUL byte at offset 3), not a text file');
  });

  it('accepts 4-byte characters', () => {
    expect(decodeText(Buffer.from('😀 ok'))).toBe('😀 ok');
  });
});
