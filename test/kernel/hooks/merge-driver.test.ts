/**
 * MEMORY.md through real git merges (issue 20, item 10): two branches that each add a memory and
 * both edit the hand-written text around the markers merge cleanly through `memctx merge-index`,
 * and conflict markers anywhere in a memory file stop `index` and fail `lint`.
 */
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, REPO } from '../../helpers/cli.js';
import { makeRepo, makeRepoWith, memoryFile, type TestRepo } from '../../helpers/repo.js';
import { conflictMarkerLines } from '../../../src/kernel/markdown/conflicts.js';

// What init registers with memctx neither in node_modules/.bin nor on PATH (as a global install would run).
const GLOBAL_DRIVER = 'if command -v memctx >/dev/null 2>&1; then exec memctx merge-index %O %A %B %P; fi; echo "memctx merge driver: memctx not found on PATH; install it (npm install -g memctx), then run memctx index. MEMORY.md is merged as plain text." >&2; exec git merge-file -L ours -L base -L theirs %A %O %B';
const index = (repo: TestRepo) => readFileSync(join(repo.top, '.memory', 'MEMORY.md'), 'utf8');

/** Base commit: memctx init (which registers the driver), one memory, hand text above and below the block (made once per file). */
function base(): Promise<TestRepo> {
  return makeRepoWith('merge-driver base', baseCommit);
}

async function baseCommit(repo: TestRepo): Promise<void> {
  expect((await repo.memctx(['init'])).code).toBe(0);
  repo.write('.memory/a.md', memoryFile('Alpha', 'the first memory'));
  expect((await repo.memctx(['index'])).code).toBe(0);
  const text = index(repo);
  repo.write('.memory/MEMORY.md', text.replace('<!-- memctx:begin -->', 'Team notes: none yet.\n\n<!-- memctx:begin -->').concat('\nFooter.\n'));
  // The built bin stands for the `memctx` on a teammate's PATH.
  repo.gitOk(['config', 'merge.memctx.driver', `node ${BIN} merge-index %O %A %B %P`]);
  repo.gitOk(['add', '-A']);
  repo.gitOk(['commit', '-q', '-m', 'memory']);
}

/** A branch that adds a memory and edits MEMORY.md's hand text with `edit` (by default: a line added below each hand-written line). */
async function branch(repo: TestRepo, name: string, file: string, title: string, edit = (text: string) => text.replace('Team notes: none yet.', `Team notes: none yet.\nNote by ${name}.`).replace('Footer.', `Footer.\nFooter by ${name}.`)) {
  repo.gitOk(['checkout', '-q', '-b', name, 'master']);
  repo.write(`.memory/${file}`, memoryFile(title, `added on ${name}`));
  expect((await repo.memctx(['index'])).code).toBe(0);
  repo.write('.memory/MEMORY.md', edit(index(repo)));
  repo.gitOk(['add', '-A']);
  repo.gitOk(['commit', '-q', '-m', name]);
}

/** base's commit, then branches one and two each adding a memory and a line below each hand-written line (made once per file). */
function branched(): Promise<TestRepo> {
  return makeRepoWith('merge-driver branched', async (repo) => {
    await baseCommit(repo);
    await branch(repo, 'one', 'b.md', 'Bravo');
    await branch(repo, 'two', 'c.md', 'Charlie');
  });
}

const ENTRIES = /- \[Alpha\]\(a\.md\) — the first memory\r?\n- \[Bravo\]\(b\.md\) — added on one\r?\n- \[Charlie\]\(c\.md\) — added on two\r?\n/;

describe('memctx init registers the MEMORY.md merge driver', () => {
  it('writes the .gitattributes line and the local git config', async () => {
    const repo = await makeRepo();
    const init = await repo.memctx(['init']);
    expect(init.code).toBe(0);
    expect(init.stdout).toContain(`each teammate runs once: git config merge.memctx.driver '${GLOBAL_DRIVER}'`);
    expect(readFileSync(join(repo.top, '.memory', '.gitattributes'), 'utf8')).toBe('/MEMORY.md merge=memctx\n');
    expect(repo.gitOk(['config', '--get', 'merge.memctx.driver']).trim()).toBe(GLOBAL_DRIVER);
    expect(repo.gitOk(['check-attr', 'merge', '.memory/MEMORY.md']).trim()).toBe('.memory/MEMORY.md: merge: memctx');
    // Running it again changes nothing, and a form the user chose is kept.
    expect((await repo.memctx(['init'])).stdout).toBe('.memory is already set up; nothing changed\n');
    repo.gitOk(['config', 'merge.memctx.driver', 'npx --no-install memctx merge-index %O %A %B']);
    expect((await repo.memctx(['hook', 'install'])).stdout).toContain('the MEMORY.md merge driver is already set');
    expect(repo.gitOk(['config', '--get', 'merge.memctx.driver']).trim()).toBe('npx --no-install memctx merge-index %O %A %B');
  });

  it('hook install sets it too and prints the line for teammates', async () => {
    const repo = await makeRepo();
    const install = await repo.memctx(['hook', 'install']);
    expect(install.code).toBe(0);
    expect(install.stdout).toContain(`set the MEMORY.md merge driver; teammates run once: git config merge.memctx.driver '${GLOBAL_DRIVER}'`);
    expect(repo.gitOk(['config', '--get', 'merge.memctx.driver']).trim()).toBe(GLOBAL_DRIVER);
  });
});

describe('a real merge of two branches that each add a memory and edit the hand text', () => {
  it('merges without conflict: lines both sides added at one place are kept, the block is what `memctx index` generates', async () => {
    const repo = await branched();
    const merge = repo.git(['merge', '--no-edit', 'one']);
    expect(merge.code, merge.stdout + merge.stderr).toBe(0);
    const merged = index(repo);
    expect(merged).toContain('Team notes: none yet.\nNote by two.\nNote by one.\n');
    expect(merged).toContain('Footer.\nFooter by two.\nFooter by one.\n');
    expect(merged).toMatch(ENTRIES);
    expect((await repo.memctx(['index', '--check'])).code).toBe(0);
    expect((await repo.memctx(['lint'])).stdout).not.toContain('conflict-marker');
  });

  it('both sides changing the same hand-written line is a conflict: markers around it, the driver exits non-zero', async () => {
    const repo = await base();
    await branch(repo, 'one', 'b.md', 'Bravo', (text) => text.replace('Team notes: none yet.', 'Team notes: the API key rotates monthly.'));
    await branch(repo, 'two', 'c.md', 'Charlie', (text) => text.replace('Team notes: none yet.', 'Team notes: the API key never rotates.'));
    const merge = repo.git(['merge', '--no-edit', 'one']);
    expect(merge.code).not.toBe(0);
    expect(merge.stdout).toContain('CONFLICT (content): Merge conflict in .memory/MEMORY.md');
    expect(merge.stderr).toContain('.memory/MEMORY.md merged, but with conflicts: resolve the git conflict markers on lines 3, 5, 7 by hand, then git add');
    const merged = index(repo);
    expect(merged.startsWith('# Memory\n\n<<<<<<< ours\nTeam notes: the API key never rotates.\n=======\nTeam notes: the API key rotates monthly.\n>>>>>>> theirs\n\n<!-- memctx:begin -->')).toBe(true);
    expect(merged).toMatch(ENTRIES);
    expect(merged).toContain('\nFooter.\n');
    expect(repo.gitOk(['diff', '--name-only', '--diff-filter=U']).trim()).toBe('.memory/MEMORY.md');
  });

  it('merges a CRLF side with an LF side: the block is rebuilt whole, in ours\' line endings', async () => {
    const repo = await base();
    await branch(repo, 'one', 'b.md', 'Bravo', (text) => text.replace(/\n/g, '\r\n'));
    await branch(repo, 'two', 'c.md', 'Charlie');
    repo.gitOk(['checkout', '-q', '-b', 'crlf-ours', 'one']);
    const merge = repo.git(['merge', '--no-edit', 'two']);
    expect(merge.code, merge.stdout + merge.stderr).toBe(0);
    const merged = index(repo);
    expect(merged).toMatch(ENTRIES);
    expect(merged).toContain('Team notes: none yet.\r\nNote by two.\r\n');
    expect(merged.replace(/\r\n/g, '')).not.toContain('\n');
    expect(merged.match(/<!-- memctx:begin -->/g)).toHaveLength(1);
    // And the other way round: ours LF, theirs CRLF.
    repo.gitOk(['checkout', '-q', '-b', 'lf-ours', 'two']);
    expect(repo.git(['merge', '--no-edit', 'one']).code).toBe(0);
    expect(index(repo)).toMatch(ENTRIES);
    expect(index(repo)).not.toContain('\r');
  });

  it('a version it refuses (a NUL byte) is named as MEMORY.md and left whole between markers, never dropped', async () => {
    const repo = await base();
    await branch(repo, 'one', 'b.md', 'Bravo', (text) => text.replace('Footer.', 'Footer with a \u0000 byte.'));
    await branch(repo, 'two', 'c.md', 'Charlie');
    const merge = repo.git(['merge', '--no-edit', 'one']);
    expect(merge.code).not.toBe(0);
    expect(merge.stderr).toContain(".memory/MEMORY.md: not merged: theirs's version holds binary data (a NUL byte at offset");
    expect(merge.stderr).not.toContain('.merge_file');
    const left = index(repo);
    expect(left.startsWith('<<<<<<< ours\n# Memory\n\nTeam notes: none yet.\nNote by two.\n')).toBe(true);
    expect(left).toContain('\n=======\n# Memory\n\nTeam notes: none yet.\n');
    expect(left).toContain('Footer with a \u0000 byte.\n>>>>>>> theirs\n');
    expect(repo.gitOk(['diff', '--name-only', '--diff-filter=U']).trim()).toBe('.memory/MEMORY.md');
  });

  it('registered without %P, a refusal names MEMORY.md, not git\'s temporary file', async () => {
    const repo = await base();
    repo.gitOk(['config', 'merge.memctx.driver', `node ${BIN} merge-index %O %A %B`]);
    await branch(repo, 'one', 'b.md', 'Bravo', (text) => `${text}${'x'.repeat(1024 * 1024)}\n`);
    await branch(repo, 'two', 'c.md', 'Charlie');
    const merge = repo.git(['merge', '--no-edit', 'one']);
    expect(merge.code).not.toBe(0);
    expect(merge.stderr).toMatch(/\bMEMORY\.md: not merged: theirs's version is \d+ bytes, over the 1048576-byte limit for MEMORY\.md; both versions are left whole/);
    expect(merge.stderr).not.toContain('.merge_file');
    expect(index(repo)).toMatch(/^<<<<<<< ours\n[^]*\n=======\n[^]*x\n>>>>>>> theirs\n$/);
  });

  it('without the driver the same merge conflicts in MEMORY.md (what the driver prevents)', async () => {
    // The driver is read at merge time only: removing it after the branches were made is the same.
    const repo = await branched();
    repo.gitOk(['config', '--remove-section', 'merge.memctx']);
    const merge = repo.git(['merge', '--no-edit', 'one']);
    expect(merge.code, merge.stdout + merge.stderr).not.toBe(0);
    const conflicted = index(repo);
    expect(conflicted).toMatch(/^<<<<<<< /m);
    // index refuses: the markers are in the hand-written text.
    const refused = await repo.memctx(['index']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/MEMORY\.md holds git conflict markers in its hand-written text \(line \d+\); not rebuilt/);
    const lint = await repo.memctx(['lint']);
    expect(lint.code).toBe(1);
    expect(lint.stdout).toContain('content/conflict-marker');
  });
});

/** memctx as a devDependency: node_modules/memctx is this checkout (built), node_modules/.bin/memctx its bin, as npm links them. */
function installAsDevDependency(repo: TestRepo): void {
  mkdirSync(join(repo.top, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(REPO, join(repo.top, 'node_modules', 'memctx'));
  symlinkSync('../memctx/bin/memctx.js', join(repo.top, 'node_modules', '.bin', 'memctx'));
  repo.write('.gitignore', 'node_modules/\n');
}

/** The merge of `base`'s two branches, run by git from a subdirectory with no memctx on PATH (made once per file). */
function devDependencyMerge(): Promise<TestRepo> {
  return makeRepoWith('merge-driver devDependency', devDependencyBranches);
}

async function devDependencyBranches(repo: TestRepo): Promise<void> {
  installAsDevDependency(repo);
  const init = await repo.memctx(['init']);
  expect(init.code).toBe(0);
  const driver = 'if [ -x node_modules/.bin/memctx ]; then exec node_modules/.bin/memctx merge-index %O %A %B %P; fi; if command -v memctx >/dev/null 2>&1; then exec memctx merge-index %O %A %B %P; fi; echo "memctx merge driver: memctx not found (not at node_modules/.bin/memctx, not on PATH); install it (npm install: memctx is in devDependencies), then run memctx index. MEMORY.md is merged as plain text." >&2; exec git merge-file -L ours -L base -L theirs %A %O %B';
  expect(init.stdout).toContain(`each teammate runs once: git config merge.memctx.driver '${driver}'`);
  expect(repo.gitOk(['config', '--get', 'merge.memctx.driver']).trim()).toBe(driver);
  repo.write('.memory/a.md', memoryFile('Alpha', 'the first memory'));
  expect((await repo.memctx(['index'])).code).toBe(0);
  repo.write('.memory/MEMORY.md', index(repo).replace('<!-- memctx:begin -->', 'Team notes: none yet.\n\n<!-- memctx:begin -->'));
  repo.gitOk(['add', '-A']);
  repo.gitOk(['commit', '-q', '-m', 'memory']);
  await branch(repo, 'one', 'b.md', 'Bravo');
  await branch(repo, 'two', 'c.md', 'Charlie');
}

describe('the merge driver as init registers it, for the way memctx is installed', () => {
  it('a devDependency (no memctx on PATH): init registers the project\'s node_modules/.bin/memctx, and a real merge is clean', async () => {
    const repo = await devDependencyMerge();
    const merge = repo.git(['merge', '--no-edit', 'one'], join(repo.top, '.memory'));
    expect(merge.stderr).not.toContain('not found');
    expect(merge.code, merge.stdout + merge.stderr).toBe(0);
    expect(index(repo)).toContain('Team notes: none yet.\nNote by two.\nNote by one.\n');
    expect(repo.gitOk(['status', '--porcelain'])).toBe('');
  });

  it('a teammate without memctx installed: a message naming what to install, git\'s own conflict, both sides kept', async () => {
    const repo = await devDependencyMerge();
    rmSync(join(repo.top, 'node_modules'), { recursive: true });
    const merge = repo.git(['merge', '--no-edit', 'one']);
    expect(merge.code).toBe(1);
    expect(merge.stderr).toContain('memctx merge driver: memctx not found (not at node_modules/.bin/memctx, not on PATH); install it (npm install: memctx is in devDependencies), then run memctx index.');
    expect(merge.stdout).toContain('CONFLICT (content): Merge conflict in .memory/MEMORY.md');
    expect(repo.gitOk(['status', '--porcelain', '.memory/MEMORY.md'])).toBe('UU .memory/MEMORY.md\n');
    const text = index(repo);
    expect(text).toMatch(/^<<<<<<< ours\nNote by two\.\n=======\nNote by one\.\n>>>>>>> theirs\n/m);
    expect(text).toContain('(c.md)');
    expect(text).toContain('(b.md)');
  });

  it('a global install (memctx on PATH only): the driver init registers runs it, and the merge is clean', async () => {
    const repo = await makeRepo();
    expect((await repo.memctx(['init'])).code).toBe(0);
    expect(repo.gitOk(['config', '--get', 'merge.memctx.driver']).trim()).toBe(GLOBAL_DRIVER);
    repo.write('.memory/a.md', memoryFile('Alpha', 'the first memory'));
    expect((await repo.memctx(['index'])).code).toBe(0);
    repo.write('.memory/MEMORY.md', index(repo).replace('<!-- memctx:begin -->', 'Team notes: none yet.\n\n<!-- memctx:begin -->'));
    repo.gitOk(['add', '-A']);
    repo.gitOk(['commit', '-q', '-m', 'memory']);
    await branch(repo, 'one', 'b.md', 'Bravo');
    await branch(repo, 'two', 'c.md', 'Charlie');
    const global = join(repo.base, 'global-bin');
    mkdirSync(global);
    writeFileSync(join(global, 'memctx'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"\n`, { mode: 0o755 });
    const merge = repo.git(['merge', '--no-edit', 'one'], repo.top, { PATH: `${global}:${process.env.PATH}` });
    expect(merge.code, merge.stdout + merge.stderr).toBe(0);
    expect(index(repo)).toContain('Team notes: none yet.\nNote by two.\nNote by one.\n');
  });

  it('an old clone\'s bare `memctx merge-index` is replaced by the devDependency form (a form the user chose is kept: first test above)', async () => {
    const repo = await makeRepo();
    installAsDevDependency(repo);
    repo.gitOk(['config', 'merge.memctx.driver', 'memctx merge-index %O %A %B']);
    expect((await repo.memctx(['hook', 'install'])).stdout).toContain('set the MEMORY.md merge driver; teammates run once: git config merge.memctx.driver \'if [ -x node_modules/.bin/memctx ]; then exec node_modules/.bin/memctx merge-index');
    expect(repo.gitOk(['config', '--get', 'merge.memctx.driver'])).toMatch(/^if \[ -x node_modules\/\.bin\/memctx \]/);
  });
});

describe('conflict markers in a memory file', () => {
  it('are a lint error and stop index, naming the file and line', async () => {
    const repo = await makeRepo();
    expect((await repo.memctx(['init'])).code).toBe(0);
    repo.write('.memory/a.md', `${memoryFile('Alpha', 'first')}<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> other\n`);
    const refused = await repo.memctx(['index']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('a.md holds git conflict markers (line 8); MEMORY.md was not rebuilt');
    const lint = await repo.memctx(['lint', '--format', 'json']);
    expect(lint.code).toBe(1);
    const findings = (JSON.parse(lint.stdout) as Array<{ filePath: string; messages: Array<{ ruleId: string; line: number }> }>).flatMap((f) => f.messages.map((m) => ({ ...m, file: f.filePath })));
    expect(findings.filter((m) => m.ruleId === 'content/conflict-marker').map((m) => m.line)).toEqual([8]);
  });

  it('finds whole conflicts; a setext heading underline (=======) alone is not a marker', () => {
    expect(conflictMarkerLines('Title\n=======\n\ntext\n')).toEqual([]);
    expect(conflictMarkerLines('a\n<<<<<<< HEAD\nx\n||||||| base\n=======\ny\n>>>>>>> b\n')).toEqual([2, 4, 5, 7]);
    expect(conflictMarkerLines('<<<<<<<< eight\n')).toEqual([]);
  });
});
