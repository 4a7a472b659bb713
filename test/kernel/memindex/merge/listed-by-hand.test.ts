import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyFixture } from '../../../helpers/cli.js';
import { runCli } from '../../../helpers/run.js';
import { listedByHand } from '../../../../src/kernel/memindex/merge.js';

/** MEMORY.md as Claude Code keeps it in its auto-memory directory: one index line per file, no markers. */
const CLAUDE_INDEX = [
  '- [User role](user_role.md) — Senior backend engineer; new to the React side',
  '- [deploy-checklist](deploy-checklist.md) — Always run the smoke suite before promoting a canary',
  '- [Small pull requests](feedback_pr-size.md) — keep PRs under 400 lines; see [testing](feedback_testing.md)',
  '* [db-migration-plan](./db-migration-plan.md) — Moving the auth tables to Postgres 16',
  '- [Release freeze](project_release-freeze.md) — Merge freeze for the mobile release cut',
  '- [api-conventions](api-conventions.md) — REST naming and error envelope',
  '- [Latency dashboard](reference_dashboards.md) — grafana.internal/d/api-latency',
  '',
].join('\n');

describe('files listed by hand in MEMORY.md are not listed again in the generated block', () => {
  it('reads the first link of each list item only', () => {
    expect([...listedByHand(CLAUDE_INDEX)].sort()).toEqual(['api-conventions.md', 'db-migration-plan.md', 'deploy-checklist.md', 'feedback_pr-size.md', 'project_release-freeze.md', 'reference_dashboards.md', 'user_role.md']);
    expect([...listedByHand('See [notes](a.md) for more.\n  - [B](b.md)\n+ [C](c.md#part)\n- [web](https://x.test/d.md)\n')].sort()).toEqual(['b.md', 'c.md']);
  });

  it("adds only what Claude Code's own index misses, and keeps the result stable for index --check and lint", async () => {
    const dir = copyFixture('claude-memory');
    writeFileSync(join(dir, 'MEMORY.md'), CLAUDE_INDEX);
    expect((await runCli(['--dir', dir, 'index'], { cwd: dir })).code).toBe(0);
    const text = readFileSync(join(dir, 'MEMORY.md'), 'utf8');
    // feedback_testing.md is only linked inside another item's description: the block lists it, and only it.
    expect(text).toBe(`${CLAUDE_INDEX}\n<!-- memctx:begin -->\n## Feedback\n\n- [Integration tests hit a real database](feedback_testing.md) — Never mock the database in integration tests\n<!-- memctx:end -->\n`);
    expect((await runCli(['--dir', dir, 'index', '--check'], { cwd: dir })).code).toBe(0);
    const lint = await runCli(['--dir', dir, 'lint', '--format', 'json'], { cwd: dir });
    expect(JSON.parse(lint.stdout).flatMap((f: { messages: { ruleId: string }[] }) => f.messages.map((m) => m.ruleId)).filter((id: string) => id.startsWith('index/'))).toEqual([]);
  });

  it('writes an empty block, not "no memory files yet", when every file is listed by hand', async () => {
    const dir = copyFixture('claude-memory');
    writeFileSync(join(dir, 'MEMORY.md'), CLAUDE_INDEX.replace('keep PRs under 400 lines; see [testing](feedback_testing.md)', 'keep PRs small\n- [Testing](feedback_testing.md) — real database'));
    expect((await runCli(['--dir', dir, 'index'], { cwd: dir })).code).toBe(0);
    expect(readFileSync(join(dir, 'MEMORY.md'), 'utf8')).toMatch(/\n\n<!-- memctx:begin -->\n<!-- memctx:end -->\n$/);
  });

  it('the bundle of pack still lists every file in its index', async () => {
    const dir = copyFixture('claude-memory');
    writeFileSync(join(dir, 'MEMORY.md'), CLAUDE_INDEX);
    const packed = await runCli(['--dir', dir, 'pack', '--budget', '2000'], { cwd: dir });
    expect(packed.code).toBe(0);
    for (const file of ['user_role.md', 'api-conventions.md', 'feedback_testing.md']) expect(packed.stdout).toContain(`](${file})`);
  });
});
