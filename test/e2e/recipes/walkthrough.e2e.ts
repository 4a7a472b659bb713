// A newcomer's walkthrough of the README with memctx installed as a user installs it: the packed
// tarball as a devDependency of a scratch project (a git repository on main, with the fixtures the
// examples name), then every runnable command of the README and docs/, in order, through the real
// node_modules/.bin/memctx (and `npx memctx`, as written). Each command must exit as the README says.
// (test/main/readme-examples.test.ts runs the same commands in-process, twice, in `npm test`.)
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES, REPO } from '../../helpers/cli.js';
import { docCommands } from '../../helpers/readme.js';
import { packTarball } from '../../helpers/pack.js';
import { runTeamRecipes } from './team.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'memctx-walkthrough-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the README, step by step, with memctx installed from its tarball', () => {
  it('every command exits as the README says: 0 failing steps', () => {
    const project = join(root, 'project');
    const home = join(root, 'home');
    mkdirSync(project);
    mkdirSync(home);
    const env: Record<string, string> = { PATH: `${join(project, 'node_modules/.bin')}:${process.env.PATH}`, HOME: home, NO_COLOR: '1', GIT_CONFIG_NOSYSTEM: '1', GIT_CEILING_DIRECTORIES: root, npm_config_fund: 'false', npm_config_audit: 'false', npm_config_update_notifier: 'false' };
    const sh = (cmd: string, args: string[]) => spawnSync(cmd, args, { cwd: project, env, encoding: 'utf8', timeout: 300_000 });
    const { tarball } = packTarball(root);
    expect(sh('git', ['init', '-q', '-b', 'main']).status).toBe(0);
    expect(sh('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '--allow-empty', '-m', 'start']).status).toBe(0);
    expect(sh('npm', ['init', '-y']).status).toBe(0);
    const install = sh('npm', ['install', '-D', '--prefer-offline', tarball]);
    expect(install.stderr).not.toMatch(/ERR!/);
    // npm 11 lists a dependency's unapproved install scripts; the tarball has none.
    expect(install.stderr).not.toMatch(/install-scripts|allowScripts/);
    expect(existsSync(join(project, 'node_modules/.bin/memctx'))).toBe(true);
    cpSync(FIXTURES, join(project, 'fixtures'), { recursive: true, filter: (source) => !source.endsWith('/.memctx') });

    const commands = docCommands(REPO);
    const fails = join(home, 'fails');
    const lines = ['for tool in npm yarn pnpm curl wget claude codex; do eval "$tool() { echo \\"$tool is not run by the walkthrough\\" >&2; return 127; }"; done'];
    for (const c of commands) {
      const shown = c.text.split('\n')[0].replace(/'/g, `'\\''`);
      lines.push(c.text, `__rc=$?; [ "$__rc" -eq ${c.expectedExit} ] || echo '${c.file}:${c.line}: exit '"$__rc"', expected ${c.expectedExit}: ${shown}' >> "${fails}"`);
    }
    writeFileSync(join(home, 'walkthrough.sh'), `${lines.join('\n')}\n`);
    const run = spawnSync('bash', [join(home, 'walkthrough.sh')], { cwd: project, env: { ...env, WORK: project }, encoding: 'utf8', timeout: 600_000 });
    expect(run.error).toBeUndefined();
    expect(existsSync(fails) ? readFileSync(fails, 'utf8') : '').toBe('');
    expect(commands.length).toBeGreaterThan(40);
    // Then the team recipes (test/e2e/recipes/team.ts) against this install: 11 steps, no warning.
    expect(runTeamRecipes(root, join(project, 'node_modules'))).toEqual({ steps: 11, failures: [] });
  }, 900_000);
});
