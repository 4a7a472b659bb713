import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, FIXTURES, REPO, tempDir } from '../helpers/cli.js';
import { runMemctx } from '../helpers/run.js';

/**
 * The files (paths inside the repo) the built bin loads for these arguments, ES modules through a
 * resolve hook and CommonJS files from require.cache at exit, Node's own modules (`builtins`, as node:zlib) from
 * process.moduleLoadList at exit; `modules` names each built file of
 * memctx by its source (dist/src/x.js as src/x.ts) and keeps packages as they are. The run is told not
 * to require ES modules, so that every module passes the resolve hook (a required one would not): which
 * modules load is the same either way, only how (kernel/load.ts).
 */
function modulesLoaded(args: string[], input = '', status: number | null = 0): { stdout: string; files: string[]; modules: string[]; builtins: string[] } {
  const list = join(tempDir(), 'modules.txt');
  const hook = `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  appendFileSync(process.env.MEMCTX_MODULE_LIST, r.url + '\\n');
  return r;
}`;
  const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});`;
  const probe = join(tempDir(), 'probe.cjs');
  writeFileSync(probe, "process.on('exit', () => require('fs').appendFileSync(process.env.MEMCTX_MODULE_LIST, [...Object.keys(require.cache).map((f) => 'file://' + f), ...process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => 'node:' + m.slice(13))].map((line) => line + '\\n').join('')));\n");
  const r = spawnSync(process.execPath, ['--no-experimental-require-module', '--require', probe, '--import', `data:text/javascript,${encodeURIComponent(register)}`, BIN, ...args], {
    input,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', MEMCTX_MODULE_LIST: list },
  });
  if (status !== null) expect(r.status, r.stderr).toBe(status);
  const prefix = `file://${REPO}/`;
  // node_modules may be a link (a worktree's to the main checkout's): its files resolve to the real path
  const packages = `file://${realpathSync(join(REPO, 'node_modules'))}/`;
  const inRepo = (url: string) => (url.startsWith(packages) ? `node_modules/${url.slice(packages.length)}` : url.startsWith(prefix) ? url.slice(prefix.length) : undefined);
  const lines = readFileSync(list, 'utf8').split('\n');
  const files = [...new Set(lines.flatMap((url) => inRepo(url) ?? []))];
  const modules = files.map((file) => file.replace(/^dist\/(src\/.*)\.js$/, '$1.ts'));
  return { stdout: r.stdout, files, modules: [...new Set(modules)], builtins: [...new Set(lines.filter((line) => line.startsWith('node:')))] };
}

/** The commands' CLI modules among what was loaded. */
const commandModules = (modules: string[]) => modules.filter((m) => /^src\/commands\/[^/]+\/cli\.ts$/.test(m));
const COMMANDER = (m: string) => m.startsWith('node_modules/commander/');
const CHALK = (m: string) => m.startsWith('node_modules/chalk/');
const TOKENIZER = /\/tokens\/(index|count|bpe|cache)\.ts$|\/transcript\/index\.ts$|\/capacity\/count\.ts$/;

describe('start-up: what the common commands load', () => {
  it('--version loads neither commander, chalk nor any command', () => {
    const { stdout, modules } = modulesLoaded(['--version']);
    expect(stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    expect(modules).toContain('src/main.ts');
    expect(modules.filter((m) => m.startsWith('node_modules/'))).toEqual([]);
    expect(modules.filter((m) => m.startsWith('src/commands/'))).toEqual([]);
  });

  it('status --statusline loads no commander, tokenizer or transcript parser; status with recorded usage loads only its command and no tokenizer', () => {
    const line = modulesLoaded(['status', '--statusline'], JSON.stringify({ model: { display_name: 'Opus' }, context_window: { context_window_size: 200000, used_percentage: 12 } }));
    expect(line.stdout).toBe('● 12% 24k/200k · Opus\n');
    expect(line.modules.filter((m) => COMMANDER(m) || TOKENIZER.test(m) || m.includes('js-tiktoken') || m.includes('node_modules/yaml'))).toEqual([]);
    expect(commandModules(line.modules)).toEqual([]);
    // green: the largest items are not needed, so nothing is counted
    const transcript = join(tempDir(), 'green.jsonl');
    writeFileSync(transcript, `${JSON.stringify({ type: 'assistant', isSidechain: false, message: { id: 'm', role: 'assistant', model: 'claude-opus-4-1', content: [], usage: { input_tokens: 5, cache_read_input_tokens: 20000 } } })}\n`);
    const status = modulesLoaded(['status', transcript]);
    expect(status.stdout).toContain('recorded usage');
    expect(commandModules(status.modules)).toEqual(['src/commands/status/cli.ts']);
    expect(status.modules.filter((m) => TOKENIZER.test(m))).toEqual([]);
  });

  it("the status line from a transcript's recorded usage loads the format detection and the usage scan only: no reader, no extraction, no flush", () => {
    const transcript = join(tempDir(), 'session.jsonl');
    const user = { type: 'user', isSidechain: false, sessionId: 's', message: { role: 'user', content: 'Fix the build' } };
    const reply = { type: 'assistant', isSidechain: false, sessionId: 's', message: { id: 'm', role: 'assistant', model: 'claude-opus-4-1', content: [{ type: 'text', text: 'Done.' }], usage: { input_tokens: 5, cache_read_input_tokens: 30000 } } };
    writeFileSync(transcript, `${JSON.stringify(user)}\n${JSON.stringify(reply)}\n`);
    const line = modulesLoaded(['status', '--statusline'], JSON.stringify({ model: { id: 'claude-opus-4-1', display_name: 'Opus' }, transcript_path: transcript }));
    expect(line.stdout).toBe('● 15% 30k/200k · Opus\n');
    expect(line.modules.filter((m) => m.startsWith('src/kernel/transcript/')).sort()).toEqual(['src/kernel/transcript/detect.ts', 'src/kernel/transcript/jsonl.ts', 'src/kernel/transcript/registry.ts', 'src/kernel/transcript/usage-fields.ts', 'src/kernel/transcript/usage.ts']);
    expect(line.modules.filter((m) => m.startsWith('src/commands/') && m !== 'src/commands/status/statusline.ts')).toEqual([]);
    expect(line.modules.filter((m) => m.startsWith('node_modules/'))).toEqual([]);
    // no status report, no memory-directory finder, no state folder: with no window sent, nothing is recorded
    expect(line.modules.filter((m) => ['src/kernel/capacity/measure.ts', 'src/kernel/store/find.ts', 'src/kernel/state/windows.ts', 'src/kernel/state/session-records.ts'].includes(m))).toEqual([]);
    // nor the shell quoting of a runner's context, nor the token-size parser, which only --window needs
    expect(line.modules.filter((m) => m === 'src/kernel/text/shell.ts' || m === 'src/kernel/tokens/size.ts')).toEqual([]);
    // with Claude Code's own figure, not even those: only the usage object's reader
    const own = modulesLoaded(['status', '--statusline'], JSON.stringify({ model: { display_name: 'Opus' }, transcript_path: transcript, context_window: { context_window_size: 200000, used_percentage: 12 } }));
    expect(own.stdout).toBe('● 12% 24k/200k · Opus\n');
    expect(own.modules.filter((m) => m.startsWith('src/kernel/transcript/') || m.startsWith('src/kernel/sources/') || m === 'src/kernel/capacity/measure.ts')).toEqual(['src/kernel/transcript/usage-fields.ts']);
  });

  it('flush --hook, mcp and index --staged run without commander, loading only their command', () => {
    const dir = join(tempDir(), 'none');
    const staged = modulesLoaded(['--dir', dir, 'index', '--staged'], '', null);
    const mcp = modulesLoaded(['--dir', dir, 'mcp']);
    const hook = modulesLoaded(['--dir', dir, 'flush', '--hook'], '{}');
    expect(commandModules(staged.modules)).toEqual(['src/commands/index/cli.ts']);
    expect(commandModules(mcp.modules)).toEqual(['src/commands/mcp/cli.ts']);
    // flush --hook runs through its command's hook.ts, without cli.ts (commander's registration and the schema)
    expect(commandModules(hook.modules)).toEqual([]);
    expect(hook.modules.filter((m) => m.startsWith('src/commands/'))).toContain('src/commands/flush/hook.ts');
    expect(hook.modules.filter((m) => m.startsWith('src/commands/') && !m.startsWith('src/commands/flush/'))).toEqual([]);
    for (const run of [staged, mcp, hook]) expect(run.modules.filter(COMMANDER)).toEqual([]);
    // no colours into a pipe: chalk (and its colour detection) stays unloaded
    for (const run of [staged, hook]) expect(run.modules.filter(CHALK)).toEqual([]);
    // its command line carries only defaults: no schema, so no valibot
    expect(hook.modules.filter((m) => m.startsWith('node_modules/valibot/') || m.endsWith('/schema.ts') && !m.startsWith('src/kernel/store/'))).toEqual([]);
  });

  it('flush --hook writes its session and rebuilds MEMORY.md without node:zlib (only the checksums of binary state files use it)', () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, '.memory'));
    writeFileSync(join(cwd, '.memory', 'auth.md'), '---\ndescription: Auth tokens\n---\n# Auth\n\nRotate the token weekly.\n');
    const input = JSON.stringify({ session_id: 's', transcript_path: join(FIXTURES, 'transcripts/claude-session.jsonl'), cwd, hook_event_name: 'SessionEnd', reason: 'other' });
    const hook = modulesLoaded(['flush', '--hook'], input);
    expect(readdirSync(join(cwd, '.memory', 'sessions'))).toHaveLength(1);
    expect(readFileSync(join(cwd, '.memory', 'MEMORY.md'), 'utf8')).toContain('sessions/');
    expect(hook.builtins).toContain('node:fs');
    expect(hook.builtins.filter((m) => m === 'node:zlib')).toEqual([]);
    // no summary by the agent to keep or check: its rules stay unloaded
    expect(hook.modules.filter((m) => m === 'src/kernel/summary/agent-summary.ts')).toEqual([]);
  });

  it.skipIf(process.platform !== 'linux')('the hooks and the status line start no thread beyond `node -e 0`\'s (no libuv thread pool: no async fs)', () => {
    const probe = join(tempDir(), 'threads.cjs');
    writeFileSync(probe, "process.on('exit', () => process.stderr.write('threads=' + require('fs').readdirSync('/proc/self/task').length + '\\n'));\n");
    const threads = (args: string[], input = '', cwd?: string) => {
      const r = spawnSync(process.execPath, ['--require', probe, ...args], { input, cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
      expect(r.status, r.stderr).toBe(0);
      return Number(/threads=(\d+)/.exec(r.stderr)?.[1]);
    };
    const cwd = tempDir();
    mkdirSync(join(cwd, '.memory'));
    const transcript = join(FIXTURES, 'transcripts/claude-session.jsonl');
    const floor = threads(['-e', '0']);
    expect(floor).toBeGreaterThan(1);
    expect(threads([BIN, 'status', '--statusline'], JSON.stringify({ model: { id: 'claude-sonnet-4-5-20250929' }, transcript_path: transcript }))).toBe(floor);
    expect(threads([BIN, 'flush', '--hook'], JSON.stringify({ session_id: 's', transcript_path: transcript, cwd, hook_event_name: 'SessionEnd', reason: 'other' }), cwd)).toBe(floor);
    expect(readdirSync(join(cwd, '.memory', 'sessions'))).toHaveLength(1);
    expect(threads([BIN, 'checkpoint'], JSON.stringify({ session_id: 's', transcript_path: transcript, cwd, hook_event_name: 'Stop', stop_hook_active: false }), cwd)).toBe(floor);
  });

  it('pack and search load only their command; a warm pack not js-tiktoken', () => {
    const dir = join(tempDir(), '.memory');
    mkdirSync(dir);
    writeFileSync(join(dir, 'auth.md'), '---\ndescription: Auth tokens\n---\n# Auth\n\nRotate the token weekly.\n');
    const out = join(tempDir(), 'bundle.md');
    modulesLoaded(['--dir', dir, 'pack', '--out', out]);
    const pack = modulesLoaded(['--dir', dir, 'pack', '--out', out]);
    const search = modulesLoaded(['--dir', dir, 'search', 'token']);
    expect(search.stdout).toContain('auth.md');
    expect(commandModules(pack.modules)).toEqual(['src/commands/pack/cli.ts']);
    expect(commandModules(search.modules)).toEqual(['src/commands/search/cli.ts']);
    for (const run of [pack, search]) expect(run.modules.filter((m) => m.includes('js-tiktoken'))).toEqual([]);
    expect(readFileSync(out, 'utf8')).toContain('Rotate the token weekly.');
  });

  it('checkpoint (the Stop hook, after every turn) runs without commander, and prints what the commander path prints', async () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, '.memory'));
    const transcript = join(cwd, 'session.jsonl');
    writeFileSync(transcript, `${JSON.stringify({ type: 'assistant', isSidechain: false, message: { id: 'm', role: 'assistant', model: 'claude-opus-4-1', content: [{ type: 'text', text: 'done' }], usage: { input_tokens: 5, cache_read_input_tokens: 170000 } } })}\n`);
    const input = JSON.stringify({ session_id: 's', transcript_path: transcript, cwd, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'done' });
    const fast = modulesLoaded(['--dir', join(cwd, '.memory'), 'checkpoint'], input);
    expect(commandModules(fast.modules)).toEqual(['src/commands/checkpoint/cli.ts']);
    expect(fast.modules.filter((m) => COMMANDER(m) || CHALK(m))).toEqual([]);
    expect(JSON.parse(fast.stdout)).toMatchObject({ decision: 'block' });
    for (const env of [{}, { NO_COLOR: undefined }]) {
      // --no-color changes nothing here but sends the command line through commander
      expect(await runMemctx(['--dir', join(cwd, '.memory'), 'checkpoint'], { cwd, input, env })).toEqual(await runMemctx(['--no-color', '--dir', join(cwd, '.memory'), 'checkpoint'], { cwd, input, env }));
    }
  });

  it('the status line without commander prints what the commander path prints', async () => {
    const cwd = tempDir();
    const inputs = [
      JSON.stringify({ model: { id: 'claude-opus-4-1', display_name: 'Opus' }, context_window: { context_window_size: 200000, used_percentage: 92 } }),
      JSON.stringify({ model: { id: 'claude-sonnet-4-5-20250929' }, transcript_path: join(FIXTURES, 'transcripts/claude-session.jsonl') }),
      'not json {',
    ];
    for (const input of inputs) {
      for (const env of [{}, { NO_COLOR: undefined }]) {
        // --quiet changes nothing in the status line but sends it through commander
        expect(await runMemctx(['status', '--statusline'], { cwd, input, env })).toEqual(await runMemctx(['--quiet', 'status', '--statusline'], { cwd, input, env }));
      }
    }
  });
});
