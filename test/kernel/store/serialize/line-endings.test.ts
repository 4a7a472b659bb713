import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runMemctx } from '../../../helpers/run.js';
import { removeDir, tempDir } from '../../../helpers/cli.js';
import { makeRepo, type TestRepo } from '../../../helpers/repo.js';
import { lineEnding } from '../../../../src/kernel/store/parse.js';

const NOW = new Date('2026-11-21T15:30:12Z');

describe('mixed line endings: every line takes the majority ending, and memctx says so', () => {
  let root: string;
  let dir: string;
  beforeEach(async () => {
    root = tempDir();
    dir = join(root, '.memory');
    expect((await runMemctx(['init'], { cwd: root })).code).toBe(0);
  });
  afterEach(() => removeDir(root));

  it('lineEnding counts the lines', () => {
    expect(lineEnding('a\nb\r\nc\n')).toEqual({ eol: '\n', mixed: true });
    expect(lineEnding('a\r\nb\r\nc\n')).toEqual({ eol: '\r\n', mixed: true });
    expect(lineEnding('a\r\n')).toEqual({ eol: '\r\n', mixed: false });
    expect(lineEnding('a')).toEqual({ eol: '\n', mixed: false });
  });

  it('edit of a mostly-LF file with one CRLF line writes LF everywhere (it used to write CRLF everywhere)', async () => {
    writeFileSync(join(dir, 'm.md'), '---\nname: M\ndescription: mixed\ntype: user\nupdated: 2026-11-01\n---\none\r\ntwo\nthree\n');
    const r = await runMemctx(['edit', 'm.md', '--old', 'two', '--new', 'TWO'], { cwd: root, now: NOW });
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, 'm.md'), 'utf8')).toBe('---\nname: M\ndescription: mixed\ntype: user\nupdated: 2026-11-21T15:30:12Z\n---\none\nTWO\nthree\n');
    expect(r.stderr).toBe('warning: m.md mixed CRLF and LF line endings; every line now ends in LF, the ending most of its lines used\n');
  });

  it('mv of a mostly-CRLF file writes CRLF everywhere and says so', async () => {
    writeFileSync(join(dir, 'm.md'), '---\r\nname: M\r\ndescription: mixed\r\ntype: user\r\nupdated: 2026-11-01\r\n---\r\none\ntwo\r\n');
    const r = await runMemctx(['mv', 'm.md', 'n.md'], { cwd: root, now: NOW });
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, 'n.md'), 'utf8')).toBe('---\r\nname: M\r\ndescription: mixed\r\ntype: user\r\nupdated: 2026-11-21T15:30:12Z\r\n---\r\none\r\ntwo\r\n');
    expect(r.stderr).toContain('n.md mixed CRLF and LF line endings; every line now ends in CRLF');
  });

  it('a file with one line ending is written as it was, with no note', async () => {
    writeFileSync(join(dir, 'c.md'), '---\r\nname: C\r\ndescription: crlf\r\ntype: user\r\n---\r\nbody\r\n');
    const r = await runMemctx(['edit', 'c.md', '--old', 'body', '--new', 'BODY'], { cwd: root, now: NOW });
    expect(r.stderr).toBe('');
    expect(readFileSync(join(dir, 'c.md'), 'utf8')).toBe('---\r\nname: C\r\ndescription: crlf\r\ntype: user\r\nupdated: 2026-11-21T15:30:12Z\r\n---\r\nBODY\r\n');
  });
});

describe('hook uninstall respects the user', () => {
  let repo: TestRepo;
  beforeEach(async () => {
    repo = await makeRepo();
    expect((await repo.memctx(['init'])).code).toBe(0);
  });
  afterEach(() => removeDir(repo.base));
  const hookPath = () => join(repo.top, '.git', 'hooks', 'pre-commit');

  it('refuses to delete lines the user added to the memctx hook, and changes nothing', async () => {
    expect((await repo.memctx(['hook', 'install'])).code).toBe(0);
    const edited = `${readFileSync(hookPath(), 'utf8')}npm run lint-staged\n`;
    writeFileSync(hookPath(), edited);
    const r = await repo.memctx(['hook', 'uninstall']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("holds a line added to memctx's hook (line ");
    expect(r.stderr).toContain(': npm run lint-staged); uninstalling would delete it, so nothing was changed');
    expect(r.stderr).toContain('pre-commit.memctx-saved');
    expect(readFileSync(hookPath(), 'utf8')).toBe(edited);
  });

  it('an unchanged memctx hook installed by another copy of memctx (other paths, --dir) is still removed', async () => {
    expect((await repo.memctx(['--dir', '.memory', 'hook', 'install'])).code).toBe(0);
    const text = readFileSync(hookPath(), 'utf8').replace(/^node=.*$/m, "node='/opt/other node/bin/node'").replace(/^bin=.*$/m, "bin='/elsewhere/memctx.js'");
    writeFileSync(hookPath(), text);
    const r = await repo.memctx(['hook', 'uninstall']);
    expect(r.code).toBe(0);
    expect(existsSync(hookPath())).toBe(false);
  });

  it('removes the empty hooks directory it created, and only that one', async () => {
    rmSync(join(repo.top, '.git', 'hooks'), { recursive: true, force: true });
    const install = await repo.memctx(['hook', 'install']);
    expect(install.code).toBe(0);
    const r = await repo.memctx(['hook', 'uninstall']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('which memctx had created and is now empty');
    expect(existsSync(join(repo.top, '.git', 'hooks'))).toBe(false);
    // A directory that was there before is left alone.
    const again = await repo.memctx(['hook', 'install']);
    expect(again.code).toBe(0);
    writeFileSync(join(repo.top, '.git', 'hooks', 'post-merge'), '#!/bin/sh\n');
    expect((await repo.memctx(['hook', 'uninstall'])).code).toBe(0);
    expect(existsSync(join(repo.top, '.git', 'hooks', 'post-merge'))).toBe(true);
  });
});
