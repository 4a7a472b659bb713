// status/statusline.ts: `memctx status --statusline`, Claude Code's status line: one line, never a failure.
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, removeDir } from '../../helpers/cli.js';
import { runCli } from '../../helpers/run.js';

let dir: string;
beforeAll(() => {
  dir = copyFixture('transcripts');
});
afterAll(() => removeDir(resolve(dir, '..')));

const run = async (args: string[], options: { input?: string; env?: Record<string, string | undefined> } = {}) => await runCli(args, { cwd: dir, ...options });

describe('memctx status --statusline', () => {
  const line = async (input: string, env: Record<string, string | undefined> = {}, args: string[] = []) => await run(['status', '--statusline', ...args], { input, env });
  const cw = (context_window: unknown, model: unknown = { id: 'claude-opus-4-1', display_name: 'Opus' }) => JSON.stringify({ hook_event_name: 'Status', session_id: 's', model, context_window });

  it('prints one line from context_window: colour dot, percent, used/window, model, level', async () => {
    const r = await line(cw({ context_window_size: 200000, used_percentage: 91, current_usage: { input_tokens: 10, cache_creation_input_tokens: 1000, cache_read_input_tokens: 182000, output_tokens: 5 } }));
    expect(r).toEqual({ code: 0, stdout: '● 91% 182k/200k · Opus orange · /compact now\n', stderr: '' });
    expect((await line(cw({ context_window_size: 200000, used_percentage: 12 }))).stdout).toBe('● 12% 24k/200k · Opus\n');
  });
  it('colours by level with 256-colour codes unless NO_COLOR', async () => {
    const r = await line(cw({ context_window_size: 200000, used_percentage: 92 }), { NO_COLOR: undefined });
    expect(r.stdout).toBe('\u001b[38;5;208m● 92%\u001b[39m 184k/200k · Opus\u001b[38;5;208m orange\u001b[39m · \u001b[38;5;208m/compact now\u001b[39m\n');
    expect((await line(cw({ context_window_size: 200000, used_percentage: 50 }), { NO_COLOR: undefined }, ['--no-color'])).stdout).toBe('● 50% 100k/200k · Opus\n');
  });
  it('falls back to the transcript when context_window is missing', async () => {
    const input = JSON.stringify({ model: { id: 'claude-sonnet-4-5-20250929', display_name: 'Sonnet 4.5' }, transcript_path: join(dir, 'claude-session.jsonl') });
    expect((await line(input)).stdout).toBe('● 80% 162k/200k · Sonnet 4.5 yellow\n');
    const oneM = JSON.stringify({ model: { id: 'claude-sonnet-4-5-20250929[1m]', display_name: 'Sonnet 4.5 (1M)' }, transcript_path: join(dir, 'claude-session.jsonl') });
    expect((await line(oneM)).stdout).toBe('● 16% 162k/1M · Sonnet 4.5 (1M)\n');
  });
  it('uses the model preset when context_window_size is missing or not positive', async () => {
    expect((await line(cw({ context_window_size: 0, current_usage: { input_tokens: 50000 } }, { id: 'gpt-4o' }))).stdout).toBe('● 39% 50k/128k · gpt-4o\n');
  });
  it('prints a short neutral line and exits 0 on stdin that is not JSON, empty, or not an object', async () => {
    for (const input of ['not json {', '', '[1,2]', '42', 'null', '{"context_window": "x"}']) {
      expect([input, await line(input)]).toEqual([input, { code: 0, stdout: '○ ctx –\n', stderr: '' }]);
    }
  });
  it('prints the neutral line with the model when there is no usage yet or the transcript is unreadable', async () => {
    expect(await line(cw({ context_window_size: 200000, used_percentage: null, current_usage: null }))).toEqual({ code: 0, stdout: '○ ctx – · Opus\n', stderr: '' });
    expect(await line(JSON.stringify({ model: { display_name: 'Opus' }, transcript_path: '/no/such/file.jsonl' }))).toEqual({ code: 0, stdout: '○ ctx – · Opus\n', stderr: '' });
    expect(await line(JSON.stringify({ model: { display_name: 'Opus' }, transcript_path: dir }))).toEqual({ code: 0, stdout: '○ ctx – · Opus\n', stderr: '' });
  });
  it('never fails on bad options either', async () => {
    expect(await line(cw({ context_window_size: 200000, used_percentage: 12 }), {}, ['--window', '0'])).toEqual({ code: 0, stdout: '○ ctx – · Opus\n', stderr: '' });
    expect(await line(cw({ context_window_size: 200000, used_percentage: 12 }), {}, ['--bogus'])).toEqual({ code: 0, stdout: '○ ctx –\n', stderr: '' });
  });
  it('honours --window over the reported size', async () => {
    expect((await line(cw({ context_window_size: 200000, current_usage: { input_tokens: 100000 } }), {}, ['--window', '1m'])).stdout).toBe('● 10% 100k/1M · Opus\n');
  });
});
