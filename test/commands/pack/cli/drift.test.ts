// pack and drift (issue 35): a drifted memory gets one line of warning and ranks below an equally relevant one that holds.
import { describe, expect, it } from 'vitest';
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
