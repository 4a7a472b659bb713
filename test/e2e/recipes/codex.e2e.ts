// init --agent codex, then the real Codex CLI reads the project's .codex/config.toml: `codex mcp list`
// names the memctx server once the project is trusted, and not before. Offline: no model is called.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN } from '../../helpers/cli.js';

const VERSION = process.env.MEMCTX_CODEX_VERSION || '0.169.0';
const cache = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'memctx-codex-e2e', VERSION);
const codex = join(cache, 'node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex');

function ensureCodex(): string | undefined {
  if (process.platform !== 'linux' || process.arch !== 'x64') return `needs linux-x64, this is ${process.platform}-${process.arch}`;
  if (existsSync(codex)) return undefined;
  mkdirSync(cache, { recursive: true });
  const r = spawnSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--no-package-lock', '--prefix', cache, `@openai/codex@${VERSION}`], { encoding: 'utf8', timeout: 600_000 });
  return existsSync(codex) ? undefined : `npm could not install @openai/codex@${VERSION}: ${r.stderr.split('\n').find((l) => /ERR/.test(l)) ?? r.status}`;
}

const unavailable = ensureCodex();
const root = realpathSync(mkdtempSync(join(tmpdir(), 'memctx-codex-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe.skipIf(unavailable)(`init --agent codex in the real Codex ${VERSION}`, () => {
  it('codex mcp list shows the memctx server from .codex/config.toml in a trusted project', () => {
    const home = join(root, 'home');
    const project = join(root, 'project');
    const bin = join(root, 'bin');
    for (const dir of [join(home, '.codex'), project, bin]) mkdirSync(dir, { recursive: true });
    writeFileSync(join(bin, 'memctx'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"\n`, { mode: 0o755 });
    execFileSync('git', ['init', '-q', project]);
    const env = { PATH: `${bin}:/usr/bin:/bin`, HOME: home, CODEX_HOME: join(home, '.codex'), NO_COLOR: '1' };
    const init = spawnSync(process.execPath, [BIN, 'init', '--agent', 'codex'], { cwd: project, env, encoding: 'utf8' });
    expect(init.status).toBe(0);
    expect(init.stdout).toContain('created .codex/config.toml: mcp_servers.memctx');
    const list = () => spawnSync(codex, ['mcp', 'list'], { cwd: project, env, encoding: 'utf8', timeout: 60_000 }).stdout;
    // Codex ignores a project's config until the project is trusted.
    expect(list()).not.toMatch(/^memctx\s/m);
    writeFileSync(join(home, '.codex/config.toml'), `[projects."${project}"]\ntrust_level = "trusted"\n`);
    expect(list()).toMatch(/^memctx\s+memctx\s+mcp\s+-\s+-\s+enabled/m);
  }, 120_000);
});
