import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../../../../helpers/cli.js';
import { contextItems, readClaudeTranscript, readTranscript } from '../../../../../src/kernel/transcript/index.js';

const fixture = (name: string) => readFileSync(join(FIXTURES, 'transcripts', name), 'utf8');

const jsonl = (...lines: unknown[]) => lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n';

const usage = (input: unknown, create: unknown = 0, read: unknown = 0) => ({ input_tokens: input, cache_creation_input_tokens: create, cache_read_input_tokens: read, output_tokens: 5 });

const assistant = (id: string, u: unknown, extra: Record<string, unknown> = {}) => ({ type: 'assistant', isSidechain: false, message: { id, role: 'assistant', model: 'claude-opus-4-1-20250805', content: [{ type: 'text', text: `reply ${id}` }], usage: u }, ...extra });

const userLine = (text: string) => ({ type: 'user', isSidechain: false, message: { role: 'user', content: text } });

describe('Claude Code JSONL', () => {
  const t = readClaudeTranscript(fixture('claude-session.jsonl'));
  it('takes the latest main-chain, non-error usage: input + cache creation + cache read', () => {
    expect(t.usage).toEqual({ used: 6 + 1500 + 160000, source: 'claude-usage', model: 'claude-sonnet-4-5-20250929', line: 13 });
    expect(t.model).toBe('claude-sonnet-4-5-20250929');
    expect(t.notes).toEqual([]);
  });
  it('turns lines into items with roles, kinds, tool names and inputs, and source lines', () => {
    const summary = t.items.map((i) => `${i.line} ${i.role} ${i.kind} ${i.toolName ?? '-'}${i.sidechain ? ' sidechain' : ''}`);
    expect(summary).toEqual([
      '2 user message -',
      '3 assistant message -',
      '4 assistant tool_call Bash',
      '5 tool tool_result Bash',
      '6 assistant tool_call Read',
      '7 tool tool_result Read',
      '8 assistant message -',
      '8 assistant tool_call Edit',
      '9 tool tool_result Edit',
      '10 assistant tool_call Bash',
      '11 tool tool_result Bash',
      '12 assistant message - sidechain',
      '13 assistant message -',
    ]);
    expect(t.items[7].toolInput).toMatchObject({ file_path: '/home/dev/shop/src/auth/refresh.ts' });
    expect(t.items[2].responseId).toBe('msg_01');
    expect(t.items[8].text).toBe('The file /home/dev/shop/src/auth/refresh.ts has been updated successfully.');
  });
  it('uses compactMetadata.postTokens when no usage follows the last compact boundary', () => {
    const c = readClaudeTranscript(fixture('claude-compacted.jsonl'));
    expect(c.usage).toEqual({ used: 23498, source: 'claude-compact-boundary', line: 3 });
    expect(c.contextStart).toBe(2);
    expect(contextItems(c).map((i) => i.line)).toEqual([4]);
  });
  it('prefers usage after the boundary, and ignores usage before it', () => {
    const boundary = { type: 'system', subtype: 'compact_boundary', compactMetadata: { trigger: 'manual', preTokens: 150000, postTokens: 20000 } };
    expect(readClaudeTranscript(jsonl(assistant('a', usage(1, 2, 150000)), boundary, assistant('b', usage(10, 20, 30000)))).usage?.used).toBe(30030);
    const noPost = { type: 'system', subtype: 'compact_boundary', compactMetadata: { trigger: 'auto', preTokens: 150000 } };
    expect(readClaudeTranscript(jsonl(assistant('a', usage(1, 2, 150000)), noPost, userLine('summary'))).usage).toBeNull();
  });
  it('treats lines repeating one message.id as one response, taking its last line', () => {
    const t2 = readClaudeTranscript(jsonl(assistant('m1', usage(3, 100, 1000)), assistant('m1', usage(3, 100, 1000))));
    expect(t2.usage).toMatchObject({ used: 1103, line: 2 });
    expect(new Set(t2.items.map((i) => i.responseId))).toEqual(new Set(['m1']));
  });
  it('ignores sidechain usage and says so when it is the only usage', () => {
    const t2 = readClaudeTranscript(jsonl(userLine('go'), assistant('s1', usage(1, 2, 3), { isSidechain: true })));
    expect(t2.usage).toBeNull();
    expect(t2.notes.map((n) => n.message)).toEqual(['only subagent (sidechain) usage is recorded (1 record); it does not measure the main context']);
    expect(contextItems(t2).map((i) => i.role)).toEqual(['user']);
  });
  it('skips API error messages and synthetic responses', () => {
    const t2 = readClaudeTranscript(jsonl(assistant('a', usage(5, 5, 5)), assistant('e', usage(0, 0, 0), { isApiErrorMessage: true })));
    expect(t2.usage?.used).toBe(15);
    expect(t2.items.map((i) => i.text)).toEqual(['reply a']);
  });
  it('ignores usage records with missing, negative or string fields, noting each', () => {
    const t2 = readClaudeTranscript(
      jsonl(
        assistant('ok', usage(7, 0, 100)),
        assistant('neg', usage(-5, 0, 100)),
        assistant('str', usage('12', 0, 100)),
        assistant('none', { output_tokens: 4 }),
        assistant('notobj', 'lots'),
      ),
    );
    expect(t2.usage).toMatchObject({ used: 107, line: 1 });
    expect(t2.notes.map((n) => n.message)).toEqual([
      'line 2: usage ignored: input_tokens is negative (-5)',
      'line 3: usage ignored: input_tokens is not a number ("12")',
      'line 4: usage ignored: it has no input_tokens or cache token fields',
      'line 5: usage ignored: usage is not an object',
    ]);
  });
  it('counts a missing cache field as zero', () => {
    expect(readClaudeTranscript(jsonl(assistant('a', { input_tokens: 900, output_tokens: 3 }))).usage?.used).toBe(900);
  });
  it('ignores a truncated last line with a note, and skips non-JSON lines with a note', () => {
    const text = jsonl(userLine('one'), 'not json at all', assistant('a', usage(1, 1, 1)), '{"type":"user"') .replace(/\n$/, '');
    const t2 = readClaudeTranscript(text);
    expect(t2.usage?.used).toBe(3);
    expect(t2.items.map((i) => i.line)).toEqual([1, 3]);
    expect(t2.notes).toEqual([
      { line: 2, message: '1 line is not JSON and was skipped (line 2)' },
      { line: 4, message: 'line 4 is an incomplete JSON line (truncated write?); ignored' },
    ]);
  });
  it('reads an empty file as an empty transcript', () => {
    expect(readTranscript('')).toEqual({ format: 'text', items: [], contextStart: 0, usage: null, notes: [] });
    expect(readClaudeTranscript('')).toMatchObject({ items: [], usage: null, notes: [] });
  });
  it('reads tool results given as content blocks, with images as a marker, and is_error', () => {
    const t2 = readClaudeTranscript(
      jsonl(
        { type: 'assistant', message: { id: 'm', role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls' } }] } },
        { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', is_error: true, content: [{ type: 'text', text: 'boom' }, { type: 'image', source: {} }] }] } },
      ),
    );
    expect(t2.items[1]).toEqual({ role: 'tool', kind: 'tool_result', text: 'boom\n[image]', line: 2, toolId: 't1', toolName: 'Bash', isError: true });
  });
});
