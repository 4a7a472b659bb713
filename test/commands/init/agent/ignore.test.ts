/**
 * init --agent claude keeps the personal .claude/settings.local.json out of git (issue 34, item 2):
 * added to the repository's .gitignore and said so, unless git already ignores it.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../../../helpers/repo.js';

const LINE = 'created .gitignore: /.claude/settings.local.json (your own settings, kept out of git)';

describe('init --agent claude and .claude/settings.local.json', () => {
  it('adds it to .gitignore and says so; `git add -A` leaves it out; a second run adds nothing', async () => {
    const repo = await makeRepo();
    const init = await repo.memctx(['init', '--agent', 'claude']);
    expect(init.code).toBe(0);
    expect(init.stdout).toContain(`${LINE}\n`);
    expect(readFileSync(join(repo.top, '.gitignore'), 'utf8')).toBe('/.claude/settings.local.json\n');
    expect(existsSync(join(repo.top, '.claude/settings.local.json'))).toBe(true);
    repo.gitOk(['add', '-A']);
    expect(repo.gitOk(['diff', '--cached', '--name-only'])).not.toContain('settings.local.json');
    const again = await repo.memctx(['init', '--agent', 'claude']);
    expect(again.stdout).not.toContain('kept out of git');
    expect(readFileSync(join(repo.top, '.gitignore'), 'utf8')).toBe('/.claude/settings.local.json\n');
  });

  it('appends to an existing .gitignore that has no final newline', async () => {
    const repo = await makeRepo();
    writeFileSync(join(repo.top, '.gitignore'), 'dist');
    const init = await repo.memctx(['init', '--agent', 'claude']);
    expect(init.stdout).toContain('updated .gitignore: /.claude/settings.local.json (your own settings, kept out of git)\n');
    expect(readFileSync(join(repo.top, '.gitignore'), 'utf8')).toBe('dist\n/.claude/settings.local.json\n');
  });

  it('leaves .gitignore alone when it already lists .claude/', async () => {
    const repo = await makeRepo();
    writeFileSync(join(repo.top, '.gitignore'), '.claude/\n');
    const init = await repo.memctx(['init', '--agent', 'claude']);
    expect(init.code).toBe(0);
    expect(init.stdout).not.toContain('kept out of git');
    expect(readFileSync(join(repo.top, '.gitignore'), 'utf8')).toBe('.claude/\n');
  });

  it('writes no .gitignore when a global core.excludesFile covers it', async () => {
    const repo = await makeRepo();
    writeFileSync(join(repo.base, 'global-ignore'), 'settings.local.json\n');
    repo.gitOk(['config', '--global', 'core.excludesFile', join(repo.base, 'global-ignore')]);
    const init = await repo.memctx(['init', '--agent', 'claude']);
    expect(init.code).toBe(0);
    expect(init.stdout).not.toContain('kept out of git');
    expect(existsSync(join(repo.top, '.gitignore'))).toBe(false);
  });
});
