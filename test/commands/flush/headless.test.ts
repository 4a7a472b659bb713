import { describe, expect, it } from 'vitest';
import { headlessCommand, readHeadlessOutput } from '../../../src/commands/flush/headless.js';

describe('headlessCommand', () => {
  it('claude: print mode, JSON result, one turn, no tools, no hooks (--safe-mode), nothing saved, low effort; the prompt on stdin', () => {
    const { file, args, label } = headlessCommand('claude');
    expect(file).toBe('claude');
    expect(label).toBe('claude -p');
    expect(args.slice(0, 12)).toEqual(['-p', '--output-format', 'json', '--max-turns', '1', '--tools', '', '--safe-mode', '--no-session-persistence', '--effort', 'low', '--system-prompt']);
  });
  it('codex: exec from stdin, JSONL events, read-only, hooks off, nothing saved', () => {
    expect(headlessCommand('codex')).toEqual({ file: 'codex', args: ['exec', '--ephemeral', '--disable', 'hooks', '--sandbox', 'read-only', '--skip-git-repo-check', '--json', '-'], label: 'codex exec' });
  });
});

describe('readHeadlessOutput', () => {
  it("claude: the result's text and the usage (cache included)", () => {
    const out = JSON.stringify({ type: 'result', is_error: false, result: '{"goal":"x"}', usage: { input_tokens: 100, cache_creation_input_tokens: 20, cache_read_input_tokens: 5, output_tokens: 40 } });
    expect(readHeadlessOutput('claude', out)).toEqual({ text: '{"goal":"x"}', usage: { input: 125, output: 40 } });
  });
  it('claude: an error result, text that is not JSON, a result without text', () => {
    expect(readHeadlessOutput('claude', JSON.stringify({ is_error: true, result: 'Credit balance is too low' }))).toEqual({ why: 'it reported an error: Credit balance is too low' });
    expect(readHeadlessOutput('claude', 'Sure! Here is the summary.')).toEqual({ why: 'its output is not the JSON result of --output-format json (Sure! Here is the summary.)' });
    expect(readHeadlessOutput('claude', '{"type":"result"}')).toEqual({ why: 'its JSON result has no "result" text ({"type":"result"})' });
  });
  it('codex: the last agent message and the turn usage, other lines skipped', () => {
    const lines = [
      'WARNING: something',
      JSON.stringify({ type: 'thread.started', thread_id: 't' }),
      JSON.stringify({ type: 'item.completed', item: { type: 'reasoning', text: 'thinking' } }),
      JSON.stringify({ type: 'item.completed', item: { type: 'agent_message', text: '{"goal":"y"}' } }),
      JSON.stringify({ type: 'turn.completed', usage: { input_tokens: 900, cached_input_tokens: 0, output_tokens: 70 } }),
    ];
    expect(readHeadlessOutput('codex', lines.join('\n'))).toEqual({ text: '{"goal":"y"}', usage: { input: 900, output: 70 } });
  });
  it('codex: a failed turn, or no message at all', () => {
    expect(readHeadlessOutput('codex', JSON.stringify({ type: 'turn.failed', error: { message: 'stream disconnected' } }))).toEqual({ why: 'it reported an error: stream disconnected' });
    expect(readHeadlessOutput('codex', '')).toEqual({ why: 'its output holds no agent message (nothing)' });
  });
});
