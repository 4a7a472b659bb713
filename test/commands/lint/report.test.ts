// commands/lint/report.ts: lint's run and report after the command has read the place and maybe started drift's log.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintAndReport } from '../../../src/commands/lint/report.js';
import { earlyDriftLog } from '../../../src/kernel/drift/check.js';
import { lintPlace } from '../../../src/kernel/lint/place.js';
import { historyCache } from '../../../src/kernel/state/history-cache.js';
import { makeRepo } from '../../helpers/repo.js';
import { runHandler } from '../../helpers/context.js';

describe('lintAndReport', () => {
  it('the same report whether drift\'s log was started before lint loaded, tried with none to start, or left to lint', async () => {
    const repo = await makeRepo();
    repo.write('src/auth.ts', 'export const a = 1;\n');
    repo.gitOk(['add', '-A']);
    repo.gitOk(['commit', '-q', '-m', 'auth']);
    const verified = repo.gitOk(['rev-parse', 'HEAD']).trim();
    repo.write('.memory/auth.md', `---\nname: auth\ndescription: where auth is checked\ntype: project\nupdated: 2026-11-01\nverified: ${verified}\n---\n\nTokens are checked in \`src/auth.ts\`.\n`);
    repo.write('src/auth.ts', 'export const a = 2;\n');
    repo.gitOk(['add', 'src']);
    repo.gitOk(['commit', '-q', '-m', 'rewrite auth']);
    const root = join(repo.top, '.memory');
    const options = { format: 'json' as const, files: [] };
    const run = (early: Parameters<typeof lintAndReport>[3]) => runHandler({ cwd: repo.top, env: repo.env }, (ctx) => lintAndReport(ctx, [], options, early));
    const left = await run({});
    expect(left.stdout).toContain('changed in 1 commit since it was verified');
    expect(left.stdout).toContain('rewrite auth');
    const place = lintPlace({ memoryDir: root }, { cwd: repo.top, env: repo.env });
    const log = earlyDriftLog(place.root, repo.env, historyCache(place.root));
    expect(log).toBeDefined();
    expect(await run({ place, drift: { log } })).toEqual(left);
    expect(await run({ place, drift: {} })).toEqual(left);
    await log?.job.stop();
  });
});
