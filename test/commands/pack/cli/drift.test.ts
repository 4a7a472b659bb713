// pack and drift (issue 35): a drifted memory gets one line of warning and ranks below an equally relevant one that holds.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stateOf } from '../../../helpers/cli.js';
import { makeMemoryRepo } from '../../../helpers/repo.js';

describe('pack marks drifted memories', () => {
  it('warns in the bundle and ranks the drifted one below its twin that still holds', async () => {
    const repo = await makeMemoryRepo();
    repo.write('src/a.ts', 'export const a = 1;\n');
    repo.write('src/b.ts', 'export const b = 1;\n');
    repo.gitOk(['add', '-A']);
    repo.gitOk(['commit', '-q', '-m', 'code']);
    for (const name of ['a', 'b']) {
      const added = await repo.memctx(['add', `project_${name}.md`, '--name', `Module ${name}`, '--description', 'how the module starts', '--type', 'project', '--created', '2026-01-01T00:00:00Z', '--body', `The module starts in \`src/${name}.ts\`.`]);
      expect(added.code).toBe(0);
    }
    repo.gitOk(['add', '-A']);
    repo.gitOk(['commit', '-q', '-m', 'memories']);
    repo.write('src/a.ts', 'export const a = 2;\n');
    repo.gitOk(['commit', '-q', '-am', 'a starts elsewhere']);
    const json = await repo.memctx(['pack', '--format', 'json']);
    const bundle = JSON.parse(json.stdout) as { files: { path: string; score: number; drifted?: string }[] };
    const a = bundle.files.find((f) => f.path === 'project_a.md')!;
    const b = bundle.files.find((f) => f.path === 'project_b.md')!;
    expect(a.drifted).toMatch(/^drifted: src\/a\.ts changed in 1 commit since it was verified \([0-9a-f]{7}\), latest [0-9a-f]{7} "a starts elsewhere"; check the code before acting on it, then `memctx verify project_a.md`$/);
    expect(b.drifted).toBeUndefined();
    expect(a.score).toBeLessThan(b.score);
    expect(bundle.files.findIndex((f) => f.path === 'project_b.md')).toBeLessThan(bundle.files.findIndex((f) => f.path === 'project_a.md'));
    const markdown = (await repo.memctx(['pack'])).stdout;
    expect(markdown.split('\n').filter((l) => l.startsWith('> ⚠ drifted: src/a.ts changed in 1 commit'))).toHaveLength(1);
  });
});

describe('the SessionStart bundle lists drifted memories in one block', () => {
  it('names at most five, then points at lint for the rest, and stays within the budget', async () => {
    const repo = await makeMemoryRepo();
    const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    for (const name of names) repo.write(`src/${name}.ts`, `export const ${name} = 1;\n`);
    repo.gitOk(['add', '-A']);
    repo.gitOk(['commit', '-q', '-m', 'code']);
    for (const name of names) {
      const added = await repo.memctx(['add', `project_${name}.md`, '--name', `Module ${name}`, '--description', `where ${name} starts`, '--type', 'project', '--created', '2026-01-01T00:00:00Z', '--body', `Module ${name} starts in \`src/${name}.ts\`.`]);
      expect(added.code).toBe(0);
    }
    repo.gitOk(['add', '-A']);
    repo.gitOk(['commit', '-q', '-m', 'memories']);
    for (const name of names) repo.write(`src/${name}.ts`, `export const ${name} = 2;\n`);
    repo.gitOk(['commit', '-q', '-am', 'modules move']);
    const out = await repo.memctx(['pack', '--profile', 'rehydrate', '--budget', '2000', '--quiet']);
    expect(out.code).toBe(0);
    const lines = out.stdout.split('\n');
    const at = lines.indexOf('## Drifted memories');
    expect(lines.slice(0, at)).toEqual(['# Memory bundle', '']);
    const block = lines.slice(at, at + 11).map((l) => l.replace(/[0-9a-f]{7}/g, 'HASH'));
    expect(block).toEqual([
      '## Drifted memories',
      '',
      'The code these memories name changed since they were verified. Check each against the code before acting on it, then `memctx verify PATH`.',
      '',
      ...['a', 'b', 'c', 'd', 'e'].map((n) => `- \`project_${n}.md\` — src/${n}.ts changed in 1 commit since it was verified (HASH), latest HASH "modules move"`),
      '- … and 2 more: `memctx lint` lists them (rule content/drifted)',
      '',
    ]);
    const json = JSON.parse((await repo.memctx(['pack', '--profile', 'rehydrate', '--budget', '2000', '--format', 'json'])).stdout) as { budget: number; drifted: { files: unknown[]; more: number; listAll: string } };
    expect(json.budget).toBe(2000);
    expect([json.drifted.files.length, json.drifted.more, json.drifted.listAll]).toEqual([5, 2, 'memctx lint']);
    const report = JSON.parse((await repo.memctx(['--json', 'pack', '--profile', 'rehydrate', '--budget', '2000'])).stdout) as { tokens: number; budget: number; bundle: string; startup: { tokens: number; budget: number; chars: number; hookOutputLimitChars: number; overHookLimit: boolean; bySource: Record<string, number> } };
    expect(report.budget).toBe(2000);
    expect(report.tokens).toBeLessThanOrEqual(2000);
    // what session start costs, by source: the parts add up to the bundle
    const { startup } = report;
    expect(Object.keys(startup.bySource)).toEqual(['index', 'pinned', 'sessions', 'drifted', 'others']);
    expect(Object.values(startup.bySource).reduce((a, b) => a + b, 0)).toBe(report.tokens);
    expect(startup.bySource.drifted).toBeGreaterThan(50);
    expect([startup.tokens, startup.budget, startup.chars, startup.hookOutputLimitChars, startup.overHookLimit]).toEqual([report.tokens, 2000, report.bundle.length, 10_000, false]);
    expect('startup' in JSON.parse((await repo.memctx(['--json', 'pack'])).stdout)).toBe(false);
    const lint = await repo.memctx(['lint']);
    // the pointer works: it names every drifted memory, the two left out of the block too
    expect(lint.code).toBe(0); // a warning
    for (const name of names) expect(lint.stdout).toMatch(new RegExp(`project_${name}\\.md[^]*content/drifted`));
    // without the profile there is no block
    expect((await repo.memctx(['pack'])).stdout).not.toContain('## Drifted memories');
  });
});

describe("pack keeps drift's git log where lint does (drift-history.json)", () => {
  it('reads the log lint kept, keeps the log of a new HEAD for lint, and status --startup writes none', async () => {
    const repo = await makeMemoryRepo();
    repo.write('src/a.ts', 'export const a = 1;\n');
    repo.gitOk(['add', '-A']);
    repo.gitOk(['commit', '-q', '-m', 'code']);
    const added = await repo.memctx(['add', 'project_a.md', '--name', 'Module a', '--description', 'how the module starts', '--type', 'project', '--body', 'The module starts in `src/a.ts`.']);
    expect(added.code).toBe(0);
    repo.gitOk(['add', '-A']);
    repo.gitOk(['commit', '-q', '-m', 'memories']);
    repo.write('src/a.ts', 'export const a = 2;\n');
    repo.gitOk(['commit', '-q', '-am', 'a starts elsewhere']);
    const kept = join(stateOf(join(repo.top, '.memory')), 'drift-history.json');
    const block = async () => (await repo.memctx(['pack', '--profile', 'rehydrate', '--budget', '2000', '--quiet'])).stdout.split('\n').filter((l) => l.startsWith('- `project_a.md`'));
    expect((await repo.memctx(['lint'])).code).toBe(0);
    // what pack says comes from the log lint kept: changed there, it shows
    const file = JSON.parse(readFileSync(kept, 'utf8')) as { logs: Record<string, string> };
    writeFileSync(kept, JSON.stringify({ ...file, logs: Object.fromEntries(Object.entries(file.logs).map(([range, log]) => [range, log.replace('a starts elsewhere', 'as kept by lint')])) }));
    expect((await block())[0]).toMatch(/"as kept by lint"$/);
    // a new HEAD: pack asks git and keeps the new range for the next lint
    repo.write('src/a.ts', 'export const a = 3;\n');
    repo.gitOk(['commit', '-q', '-am', 'a moves again']);
    expect((await block())[0]).toMatch(/changed in 2 commits since it was verified \([0-9a-f]{7}\), latest [0-9a-f]{7} "a moves again"$/);
    const head = repo.gitOk(['rev-parse', 'HEAD']).trim();
    expect(Object.keys((JSON.parse(readFileSync(kept, 'utf8')) as { logs: Record<string, string> }).logs).map((range) => range.split(' ')[0])).toEqual([head]);
    // status --startup measures the bundle and writes nothing
    rmSync(kept);
    expect((await repo.memctx(['status', '--startup'])).code).toBe(0);
    expect(existsSync(kept)).toBe(false);
  });
});
