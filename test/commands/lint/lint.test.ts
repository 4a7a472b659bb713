// lint/lint.ts: lint's use case: inline disables, a selection of files, and --fix (test/commands/lint/cli.test.ts
// runs it through `memctx lint`).
import { existsSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lintMemory } from '../../../src/commands/lint/lint.js';
import { lintSetup } from '../../../src/kernel/lint/setup.js';
import { runMemctx } from '../../helpers/run.js';
import { LINT_NOW as NOW, lintProject, noType } from '../../helpers/lint-project.js';
import { makeRepo } from '../../helpers/repo.js';
import { stateDir } from '../../../src/kernel/state/folder.js';


describe('lintMemory', () => {
  let cwd: string;
  let memory: string;
  const lint = (args: string[]) => runMemctx(['lint', ...args], { cwd, now: NOW });
  beforeEach(async () => {
    ({ cwd, memory } = await lintProject());
  });
  afterEach(() => rmSync(cwd, { recursive: true, force: true }));

  it('inline <!-- memctx-disable rule-id --> silences that rule for that file only', async () => {
    writeFileSync(join(memory, 'a.md'), noType('a', 'Plain text.\n<!-- memctx-disable frontmatter/required -->\n'));
    writeFileSync(join(memory, 'b.md'), noType('b', '<!-- memctx-disable content/ephemeral -->\n'));
    await runMemctx(['index'], { cwd, now: NOW });
    const out = JSON.parse((await lint(['--format', 'json'])).stdout) as Array<{ filePath: string; messages: Array<{ ruleId: string }> }>;
    expect(out.find((f) => f.filePath.endsWith('a.md'))?.messages).toEqual([]);
    expect(out.find((f) => f.filePath.endsWith('b.md'))?.messages.map((m) => m.ruleId)).toContain('frontmatter/required');
  });

  it('lintMemory: the given files only, those outside the memory directory set aside; --fix sets a missing date (from the file time) and says so', async () => {
    writeFileSync(join(memory, 'd.md'), '---\nname: d\ndescription: About d\ntype: project\n---\n\nPlain text.\n');
    utimesSync(join(memory, 'd.md'), new Date('2026-11-01T08:00:00Z'), new Date('2026-11-01T08:00:00Z'));
    const deps = { cwd, env: { PATH: process.env.PATH }, now: () => NOW };
    const picked = await lintMemory(lintSetup({ memoryDir: memory }, deps), { files: ['.memory/b.md', 'README.md', '.memory/.hidden.md'] }, deps);
    expect([...new Set(picked.result.findings.map((f) => f.file))]).toEqual(['b.md']);
    expect(picked.outside).toEqual(['README.md', '.memory/.hidden.md']);
    const fixed = await lintMemory(lintSetup({ memoryDir: memory }, deps), { fix: true }, deps);
    expect(fixed.changes).toEqual(['d.md: set updated to 2026-11-01T08:00:00Z', 'MEMORY.md: rebuilt (4 files)']);
    expect(fixed.skipped).toEqual([]);
    expect(readFileSync(join(memory, 'd.md'), 'utf8')).toContain('updated: 2026-11-01T08:00:00Z\n');
    expect(fixed.result.findings.some((f) => f.file === 'd.md')).toBe(false);
  });
});

describe('lintMemory and drift', () => {
  it("content/drifted from git's log (kept for the next run); with the rule off, no log is asked for or kept", async () => {
    const repo = await makeRepo();
    repo.write('src/a.ts', 'export const a = 1;\n');
    repo.gitOk(['add', '-A']);
    repo.gitOk(['commit', '-q', '-m', 'add a']);
    const verified = repo.gitOk(['rev-parse', 'HEAD']).trim();
    repo.write('.memory/a.md', `---\nname: a\ndescription: About a\ntype: project\nupdated: 2026-11-20T00:00:00Z\nverified: ${verified}\n---\n\nThe constant lives in \`src/a.ts\`.\n`);
    repo.write('src/a.ts', 'export const a = 2;\n');
    repo.gitOk(['commit', '-q', '-am', 'change a']);
    const memory = join(repo.top, '.memory');
    await runMemctx(['index'], { cwd: repo.top, now: NOW });
    const deps = { cwd: repo.top, env: { ...repo.env, PATH: process.env.PATH }, now: () => NOW };
    const kept = join(stateDir(memory)!, 'drift-history.json');
    writeFileSync(join(repo.top, 'off.json'), JSON.stringify({ rules: { 'content/drifted': 'off' } }));
    const off = await lintMemory(lintSetup({ memoryDir: memory, configFile: 'off.json' }, deps), {}, deps);
    expect(off.result.findings.filter((f) => f.ruleId === 'content/drifted')).toEqual([]);
    expect(existsSync(kept)).toBe(false);
    const on = await lintMemory(lintSetup({ memoryDir: memory }, deps), {}, deps);
    expect(on.result.findings.filter((f) => f.ruleId === 'content/drifted').map((f) => f.message)).toEqual([
      expect.stringMatching(/^src\/a\.ts changed in 1 commit since it was verified \([0-9a-f]{7}\), latest [0-9a-f]{7} "change a"; check it against the code/),
    ]);
    expect(readFileSync(kept, 'utf8')).toContain('change a');
  });
});
