import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { init } from '../../src/actions/init.js';
import { add } from '../../src/actions/add.js';
import { edit } from '../../src/actions/edit.js';
import { show } from '../../src/actions/show.js';
import { ls } from '../../src/actions/ls.js';
import { mv } from '../../src/actions/mv.js';
import { rm } from '../../src/actions/rm.js';
import { search } from '../../src/actions/search.js';
import { indexMemory } from '../../src/actions/index.js';
import { defaultLintConfig } from '../../src/lint/config.js';
import { RULES } from '../../src/lint/rules/index.js';

const now = () => new Date('2026-11-20T10:00:00Z');
const warnings: string[] = [];
const writeDeps = { now, warn: (message: string) => warnings.push(message) };

describe('the command actions, called without the CLI', () => {
  let cwd: string;
  let root: string;
  beforeEach(async () => {
    warnings.length = 0;
    cwd = mkdtempSync(join(tmpdir(), 'memctx-actions-'));
    root = join(cwd, '.memory');
    expect((await init({ root }, { cwd, env: {} })).created).toEqual(['.', 'templates/', '.gitignore', 'MEMORY.md']);
    const created = await add(
      { root, path: 'auth', fields: { name: 'auth', description: 'How tokens are refreshed', type: 'project', tag: ['login'] } },
      { ...writeDeps, lintConfig: () => defaultLintConfig(RULES), readBody: async () => 'Refresh tokens rotate every hour.' },
    );
    expect(created).toEqual({ created: 'auth.md' });
  });
  afterEach(() => rmSync(cwd, { recursive: true, force: true }));

  it('add stamps the injected clock, and edit replaces one occurrence', async () => {
    expect(readFileSync(join(root, 'auth.md'), 'utf8')).toContain('updated: 2026-11-20T10:00:00Z');
    expect(await edit({ root, path: 'auth.md', old: 'every hour', new: 'every day' }, writeDeps)).toEqual({ edited: 'auth.md' });
    const shown = await show({ root, path: 'auth.md', withText: true }, { now });
    expect(shown.index === false && shown.text).toContain('Refresh tokens rotate every day.');
    expect(shown.index === false && shown.warnings).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it('ls and search filter, and search --open returns the best hit', async () => {
    expect((await ls({ root, tag: 'login' }, { now })).files.map((f) => f.path)).toEqual(['auth.md']);
    expect((await ls({ root, tag: 'other' }, { now })).files).toEqual([]);
    const found = await search({ root, query: 'refresh tokens', limit: 5, open: true }, { now });
    expect(found.hits.map((h) => h.path)).toEqual(['auth.md']);
    expect(found.opened?.path).toBe('auth.md');
    await expect(search({ root, query: 'tokens', limit: '0' }, { now })).rejects.toThrow('--limit must be a positive whole number, got "0"');
    await expect(search({ root, query: 'tokens', limit: 5, minImportance: '11' }, { now })).rejects.toThrow('--min-importance must be a whole number from 1 to 10');
  });

  it('dry runs return objects and change nothing; mv and rm re-index', async () => {
    expect(await mv({ root, from: 'auth', to: 'login', dryRun: true }, writeDeps)).toEqual({ from: 'auth.md', to: 'login.md', dryRun: true });
    expect(await rm({ root, path: 'auth', dryRun: true }, writeDeps)).toEqual({ deleted: 'auth.md', dryRun: true });
    expect(existsSync(join(root, 'auth.md'))).toBe(true);
    expect(await mv({ root, from: 'auth', to: 'login' }, writeDeps)).toEqual({ from: 'auth.md', to: 'login.md' });
    expect(readFileSync(join(root, 'MEMORY.md'), 'utf8')).toContain('login.md');
    expect(await rm({ root, path: 'login' }, writeDeps)).toEqual({ deleted: 'login.md' });
    expect(readFileSync(join(root, 'MEMORY.md'), 'utf8')).not.toContain('login.md');
    const check = await indexMemory({ root, check: true });
    expect(check.check && check.plan.changed).toBe(false);
  });
});
