// The pre-commit framework recipe with the real pre-commit (Debian's, 3.x: `npm install` and
// `npm pack` in its clone) against a local clone of this repository as the hook repository, and the
// exact install pre-commit 4.x runs instead (`npm install -g git+file://CLONE`, which builds nothing
// unless `prepare` does). Both install from the npm registry: this runs with test:claude, not npm test.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, REPO } from '../../helpers/cli.js';

const hasPreCommit = spawnSync('pre-commit', ['--version'], { encoding: 'utf8' }).status === 0;
const root = mkdtempSync(join(tmpdir(), 'memctx-pre-commit-'));
const sh = (cmd: string, args: string[], cwd: string, env: Record<string, string> = {}) =>
  spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout: 400_000, env: { ...process.env, NO_COLOR: '1', PRE_COMMIT_HOME: join(root, 'cache'), npm_config_fund: 'false', npm_config_audit: 'false', ...env } });

// The hook repository: this repository's committed HEAD.
const hookRepo = join(root, 'memctx');
sh('git', ['clone', '-q', REPO, hookRepo], root);
const rev = sh('git', ['rev-parse', 'HEAD'], hookRepo).stdout.trim();

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe.skipIf(!hasPreCommit)('the pre-commit framework recipe, real pre-commit', () => {
  it('installs the hook repository, passes on a fresh index, fails on a stale one', () => {
    const project = join(root, 'project');
    mkdirSync(project);
    sh('git', ['init', '-q', '-b', 'main'], project);
    expect(sh(process.execPath, [BIN, 'init'], project).status).toBe(0);
    writeFileSync(join(project, '.pre-commit-config.yaml'), `repos:\n  - repo: ${hookRepo}\n    rev: ${rev}\n    hooks:\n      - id: memctx-index\n      - id: memctx-lint\n`);
    sh('git', ['add', '-A'], project);
    const first = sh('pre-commit', ['run', '--all-files'], project);
    expect(first.stdout + first.stderr).toMatch(/memctx index --check\.+Passed/);
    expect(first.stdout).toMatch(/memctx lint\.+Passed/);
    expect(first.status).toBe(0);
    writeFileSync(join(project, '.memory/project_a.md'), '---\nname: A\ndescription: A fact\ntype: project\n---\n\nBody.\n');
    sh('git', ['add', '-A'], project);
    const stale = sh('pre-commit', ['run', '--all-files'], project);
    expect(stale.stdout).toMatch(/memctx index --check\.+Failed/);
    expect(stale.status).toBe(1);
  }, 600_000);
});

describe('the install pre-commit 4.x runs: npm install -g git+file://CLONE', () => {
  it('builds memctx through prepare, so the installed bin runs', () => {
    const prefix = join(root, 'node_env');
    const install = sh('npm', ['install', '--allow-git=root', '--install-links', '-g', `git+file://${hookRepo}`], root, { NPM_CONFIG_PREFIX: prefix, npm_config_prefix: prefix });
    expect(install.stderr).not.toContain('ERR');
    expect(install.status).toBe(0);
    expect(existsSync(join(prefix, 'lib/node_modules/memctx/dist/src/main.js'))).toBe(true);
    const version = sh(join(prefix, 'bin/memctx'), ['--version'], root);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  }, 600_000);
});
