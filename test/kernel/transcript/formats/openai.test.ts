import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../../../helpers/cli.js';
import { readOpenAiTranscript, readTranscript } from '../../../../src/kernel/transcript/index.js';

const fixture = (name: string) => readFileSync(join(FIXTURES, 'transcripts', name), 'utf8');



describe('OpenAI messages', () => {
  it('reads an array with tool calls, pointing each item at the line its message starts', () => {
    const t = readOpenAiTranscript(fixture('openai-messages.json'));
    expect(t.usage).toBeNull();
    expect(t.items.map((i) => `${i.line} ${i.role} ${i.kind} ${i.toolName ?? '-'}`)).toEqual([
      '2 system message -',
      '6 user message -',
      '10 assistant tool_call read_file',
      '24 tool tool_result read_file',
      '29 assistant message -',
      '29 assistant tool_call write_file',
      '43 tool tool_result write_file',
      '48 user message -',
      '57 assistant message -',
    ]);
    expect(t.items[2].toolInput).toEqual({ path: 'src/checkout/pay.ts' });
  });
  it('reads {messages: [...]}, keeps the model, and skips entries that are not objects', () => {
    const t = readTranscript('{"model": "gpt-4o",\n "messages": [\n  {"role": "user", "content": "a"},\n  42,\n  {"role": "assistant", "content": "b"}\n]}');
    expect(t.format).toBe('openai');
    expect(t.model).toBe('gpt-4o');
    expect(t.items.map((i) => [i.line, i.text])).toEqual([[3, 'a'], [5, 'b']]);
    expect(t.notes).toEqual([{ line: 4, message: '1 message is not an object and was skipped' }]);
  });
  it('reads messages one a line', () => {
    const t = readTranscript('{"role":"user","content":"hi"}\n{"role":"assistant","content":"yo"}\n');
    expect(t.items.map((i) => `${i.line}:${i.role}:${i.text}`)).toEqual(['1:user:hi', '2:assistant:yo']);
  });
  it('handles brackets and quotes inside strings when finding lines', () => {
    const t = readOpenAiTranscript('[\n{"role":"user","content":"a ] \\" [ {"},\n\n{"role":"user","content":"b"}]');
    expect(t.items.map((i) => i.line)).toEqual([2, 4]);
  });
});
