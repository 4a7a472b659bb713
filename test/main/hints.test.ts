import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runMemctx } from '../helpers/run.js';
import { copyFixture, removeDir, tempDir } from '../helpers/cli.js';

describe('hints that work when pasted', () => {
  let root: string;
  beforeEach(() => {
    root = tempDir();
  });
  afterEach(() => removeDir(root));

  it('bundle load hints carry the --dir the bundle was built with, and the pasted hint works', async () => {
    const dir = copyFixture('seed-memory', root);
    // 1,200 tokens: the index, four files in full, and a description line with its load hint.
    const r = await runMemctx(['--dir', dir, 'pack', '--budget', '1200', '--format', 'json'], { cwd: root });
    expect(r.code).toBe(0);
    const bundle = JSON.parse(r.stdout) as { files?: { tier: string; load?: string }[]; leftOut?: { note: string } };
    const loads = (bundle.files ?? []).filter((f) => f.tier === 'description').map((f) => f.load!);
    expect(loads.length).toBeGreaterThan(0);
    for (const load of loads) expect(load.startsWith(`memctx --dir ${dir} show `)).toBe(true);
    const words = loads[0].split(' ').slice(1);
    const shown = await runMemctx(words, { cwd: '/' });
    expect(shown.code).toBe(0);
    if (bundle.leftOut) expect(bundle.leftOut.note).toContain(`\`memctx --dir ${dir} show PATH\``);
  });

  it('a --dir with a space is quoted for the shell', async () => {
    const dir = copyFixture('seed-memory', join(root, 'my notes'));
    const r = await runMemctx(['--dir', dir, 'pack', '--budget', '1000'], { cwd: root });
    expect(r.stdout).toContain(`\`memctx --dir '${dir}' show `);
    expect(r.stdout).not.toContain('`memctx show ');
  });

  it('with --claude the hints say memctx --claude', async () => {
    const home = join(root, 'home');
    const project = join(root, 'proj');
    mkdirSync(project, { recursive: true });
    const missing = await runMemctx(['--claude', 'ls'], { cwd: project, home });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('hint: run `memctx --claude init` to create it');
    expect((await runMemctx(['--claude', 'init'], { cwd: project, home })).code).toBe(0);
    for (let i = 0; i < 12; i++) {
      expect((await runMemctx(['--claude', 'add', `note_${i}`, '--name', `Note ${i}`, '--description', `note number ${i} `.repeat(8), '--type', 'project', '--body', 'body '.repeat(60)], { cwd: project, home })).code).toBe(0);
    }
    const r = await runMemctx(['--claude', 'pack', '--budget', '400'], { cwd: project, home });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('`memctx --claude show ');
    expect(r.stdout).not.toMatch(/`memctx show /);
  });

  it('a missing --dir says how to create that directory', async () => {
    const r = await runMemctx(['--dir', 'nope', 'ls'], { cwd: root });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('hint: run `memctx --dir nope init` to create it');
  });

  it("the index overflow line's command lists exactly the hidden files", async () => {
    const dir = join(root, '.memory');
    expect((await runMemctx(['init'], { cwd: root })).code).toBe(0);
    for (let i = 1; i <= 260; i++) {
      const type = i % 2 ? 'user' : 'project';
      writeFileSync(join(dir, `${type}_${String(i).padStart(3, '0')}.md`), `---\nname: ${type} ${i}\ndescription: memory number ${i}\ntype: ${type}\n---\n`);
    }
    expect((await runMemctx(['index'], { cwd: root })).code).toBe(0);
    const index = readFileSync(join(dir, 'MEMORY.md'), 'utf8');
    const overflow = index.split('\n').filter((l) => l.startsWith('- … and '));
    expect(overflow.length).toBe(2);
    for (const line of overflow) {
      const [, hidden, command] = /^- … and (\d+) more: `memctx (.+)`$/.exec(line)!;
      const listed = JSON.parse((await runMemctx(['--json', ...command.split(' ')], { cwd: root })).stdout) as { path: string }[];
      expect(listed.length).toBe(Number(hidden));
      for (const f of listed) expect(index).not.toContain(`](${f.path})`);
    }
  });
});
