/** Shared set-ups for the per-action tests (test/commands/<command>/<command>.test.ts). */
import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { copyFixture, tempDir } from './cli.js';
import { runCli } from './run.js';
import { init } from '../../src/commands/init/init.js';
import { add } from '../../src/commands/add/add.js';
import { defaultLintConfig } from '../../src/kernel/lint/config.js';
import { RULES } from '../../src/kernel/lint/rules/index.js';

/** A copy of a fixture as `<tmp>/.memory`, and the directory holding it (where commands run). */
export function workspace(fixture = 'seed-memory'): { cwd: string; root: string } {
  const cwd = tempDir();
  const root = join(cwd, '.memory');
  copyFixture(fixture, cwd);
  renameSync(join(cwd, fixture), root);
  return { cwd, root };
}

export const run = async (cwd: string, args: string[], input?: string) => await runCli(args, { cwd, input });

export const now = () => new Date('2026-11-20T10:00:00Z');

/**
 * For the actions called without the CLI: a memory directory made by `init` holding one file,
 * auth.md, made by `add` with the clock above; `warnings` collects what the write actions warn.
 */
export async function actionProject() {
  const warnings: string[] = [];
  const writeDeps = { now, warn: (message: string) => warnings.push(message) };
  const cwd = tempDir('memctx-actions-');
  const root = join(cwd, '.memory');
  expect((await init({ root }, { cwd, env: {} })).created).toEqual(['.', 'templates/', '.gitignore', 'MEMORY.md']);
  const created = await add(
    { root, path: 'auth', fields: { name: 'auth', description: 'How tokens are refreshed', type: 'project', tag: ['login'] } },
    { ...writeDeps, lintConfig: () => defaultLintConfig(RULES), readBody: async () => 'Refresh tokens rotate every hour.' },
  );
  expect(created).toEqual({ created: 'auth.md' });
  return { cwd, root, warnings, writeDeps };
}
