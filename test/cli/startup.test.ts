import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, FIXTURES, REPO, tempDir } from '../helpers/cli.js';
import { runMemctx } from '../helpers/run.js';

/** The modules (paths inside the repo) the built bin imports for these arguments, in load order. */
function modulesLoaded(args: string[], input = ''): { stdout: string; modules: string[] } {
  const list = join(tempDir(), 'modules.txt');
  const hook = `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  appendFileSync(process.env.MEMCTX_MODULE_LIST, r.url + '\\n');
  return r;
}`;
  const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});`;
  const r = spawnSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(register)}`, BIN, ...args], {
    input,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', MEMCTX_MODULE_LIST: list },
  });
  expect(r.status).toBe(0);
  const prefix = `file://${REPO}/`;
  const modules = readFileSync(list, 'utf8').split('\n').filter((url) => url.startsWith(prefix)).map((url) => url.slice(prefix.length));
  return { stdout: r.stdout, modules: [...new Set(modules)] };
}

const commandModules = (modules: string[]) => modules.filter((m) => /^dist\/src\/cli\/[^/]+\.js$/.test(m) && !/\/(main|context|run|options|input|statusline)\.js$/.test(m));

describe('start-up: what the common commands load', () => {
  it('--version loads neither commander, chalk nor any command', () => {
    const { stdout, modules } = modulesLoaded(['--version']);
    expect(stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    expect(modules.filter((m) => m.startsWith('node_modules/'))).toEqual([]);
    expect(commandModules(modules)).toEqual([]);
  });

  it('status --statusline loads no commander; status with recorded usage loads only its command, no tokenizer or transcript parser', () => {
    const line = modulesLoaded(['status', '--statusline'], JSON.stringify({ model: { display_name: 'Opus' }, context_window: { context_window_size: 200000, used_percentage: 12 } }));
    expect(line.stdout).toBe('● 12% 24k/200k · Opus\n');
    expect(line.modules.filter((m) => m.includes('node_modules/commander'))).toEqual([]);
    // green: the largest items are not needed, so nothing is counted
    const transcript = join(tempDir(), 'green.jsonl');
    writeFileSync(transcript, `${JSON.stringify({ type: 'assistant', isSidechain: false, message: { id: 'm', role: 'assistant', model: 'claude-opus-4-1', content: [], usage: { input_tokens: 5, cache_read_input_tokens: 20000 } } })}\n`);
    const status = modulesLoaded(['status', transcript]);
    expect(status.stdout).toContain('recorded usage');
    expect(commandModules(status.modules)).toEqual(['dist/src/cli/status.js']);
    expect(status.modules.filter((m) => /\/tokens\/(index|count|bpe|cache)\.js$|\/transcript\/index\.js$|\/capacity\/count\.js$/.test(m))).toEqual([]);
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
