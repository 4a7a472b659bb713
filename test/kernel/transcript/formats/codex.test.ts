import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../../../helpers/cli.js';
import { contextItems, readCodexTranscript } from '../../../../src/kernel/transcript/index.js';

const fixture = (name: string) => readFileSync(join(FIXTURES, 'transcripts', name), 'utf8');

const jsonl = (...lines: unknown[]) => lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n';



describe('Codex JSONL', () => {
  const t = readCodexTranscript(fixture('codex-session.jsonl'));
  it('takes the latest token_count: last_token_usage.total_tokens against model_context_window', () => {
    expect(t.usage).toEqual({ used: 245000, window: 272000, source: 'codex-token-count', line: 11, model: 'gpt-5-codex' });
  });
  it('reads messages, function calls and custom tool calls, skipping duplicate event_msg text', () => {
    expect(t.items.map((i) => `${i.line} ${i.role} ${i.kind} ${i.toolName ?? '-'}`)).toEqual([
      '3 user message -',
      '7 assistant tool_call shell',
      '8 tool tool_result shell',
      '9 assistant tool_call apply_patch',
      '10 tool tool_result apply_patch',
      '12 assistant message -',
    ]);
    expect(t.items[2].text).toBe('src/routes/login.ts:12:router.post("/login", async (req, res) => {\n');
    expect(t.items[1].toolInput).toMatchObject({ command: ['bash', '-lc', 'rg -n "router.post\\(\\"/login" src'] });
  });
  it('ignores token_count records with bad totals, noting them, and info: null silently', () => {
    const tc = (total: unknown) => ({ type: 'event_msg', payload: { type: 'token_count', info: { last_token_usage: { total_tokens: total }, model_context_window: 128000 } } });
    const t2 = readCodexTranscript(jsonl(tc(5000), tc(-1), tc('9'), { type: 'event_msg', payload: { type: 'token_count', info: null } }));
    expect(t2.usage).toEqual({ used: 5000, window: 128000, source: 'codex-token-count', line: 1 });
    expect(t2.notes.map((n) => n.message)).toEqual([
      'line 2: token_count ignored: last_token_usage.total_tokens is negative (-1)',
      'line 3: token_count ignored: last_token_usage.total_tokens is not a number ("9")',
    ]);
  });
  it('starts the context at a compacted record', () => {
    const t2 = readCodexTranscript(jsonl({ type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'old' }] } }, { type: 'compacted', payload: { message: 'summary of before' } }));
    expect(contextItems(t2).map((i) => i.text)).toEqual(['summary of before']);
  });
});
