// flush/foreground.ts: what only a flush outside the hook loads; `flush --hook` loads none of it (issue 31).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import * as foreground from '../../../src/commands/flush/foreground.js';
import { secretMessage } from '../../../src/kernel/summary/agent-summary.js';
import { BIN, FIXTURES, removeDir, tempDir } from '../../helpers/cli.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

/**
 * Every module URL Node resolves while `flush --hook` runs (a resolve hook writes them to a file). The run
 * is told not to require ES modules, so every module passes the hook: which ones load is the same either way.
 */
function hookModules(project: string, transcript: string): string[] {
  const list = join(project, 'modules.txt');
  const hooks = join(project, 'hooks.mjs');
  writeFileSync(hooks, `import { appendFileSync } from 'node:fs';\nexport async function resolve(specifier, context, next) {\n  const found = await next(specifier, context);\n  appendFileSync(${JSON.stringify(list)}, found.url + '\\n');\n  return found;\n}\n`);
  const register = join(project, 'register.mjs');
  writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
  const input = JSON.stringify({ session_id: 'fg', transcript_path: transcript, cwd: project, hook_event_name: 'SessionEnd', reason: 'exit' });
  execFileSync(process.execPath, ['--no-experimental-require-module', '--import', pathToFileURL(register).href, BIN, 'flush', '--hook'], { cwd: project, input, env: { ...process.env, HOME: project, XDG_CACHE_HOME: join(project, 'cache'), MEMCTX_DIR: '' }, stdio: ['pipe', 'ignore', 'ignore'] });
  return readFileSync(list, 'utf8').trim().split('\n');
}

describe('flush foreground', () => {
  it('is not loaded by flush --hook, which still writes its summary', () => {
    const project = tempDir();
    dirs.push(project);
    mkdirSync(join(project, '.memory'));
    writeFileSync(join(project, '.memory', 'MEMORY.md'), '# Memory\n');
    const transcript = join(project, 'session.jsonl');
    cpSync(join(FIXTURES, 'transcripts/claude-session.jsonl'), transcript);
    const loaded = hookModules(project, transcript);
    expect(readdirSync(join(project, '.memory', 'sessions'))).toHaveLength(1);
    expect(loaded.some((url) => url.endsWith('/commands/flush/flush.js'))).toBe(true);
    const off = ['commands/flush/foreground.js', 'commands/flush/summarize.js', 'kernel/lint/secrets.js', 'kernel/sources/history.js', 'kernel/text/suggest.js', 'kernel/state/summary-jobs.js', '/graceful-fs/'];
    expect(off.filter((name) => loaded.some((url) => url.includes(name)))).toEqual([]);
  });

  it("gives the agent's summary check its secret scanner", async () => {
    const values = { goal: ['ship it'], progress: ['set AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY in .env'] };
    expect(await secretMessage(values, foreground)).toMatch(/^the session summary holds a possible secret in progress item 1 \(/);
    expect(await secretMessage({ goal: ['ship it'] }, foreground)).toBeUndefined();
    expect(foreground.closestMatch('sesion', ['session', 'decision'])).toBe('session');
  });
});
