import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../../helpers/cli.js';
import {
  changedFiles,
  contextItems,
  createUsageScanner,
  detectFormat,
  readClaudeTranscript,
  readCodexTranscript,
  readOpenAiTranscript,
  readTextTranscript,
  readTranscript,
} from '../../../src/kernel/transcript/index.js';

const fixture = (name: string) => readFileSync(join(FIXTURES, 'transcripts', name), 'utf8');
const jsonl = (...lines: unknown[]) => lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n';
const usage = (input: unknown, create: unknown = 0, read: unknown = 0) => ({ input_tokens: input, cache_creation_input_tokens: create, cache_read_input_tokens: read, output_tokens: 5 });
const assistant = (id: string, u: unknown, extra: Record<string, unknown> = {}) => ({ type: 'assistant', isSidechain: false, message: { id, role: 'assistant', model: 'claude-opus-4-1-20250805', content: [{ type: 'text', text: `reply ${id}` }], usage: u }, ...extra });
const userLine = (text: string) => ({ type: 'user', isSidechain: false, message: { role: 'user', content: text } });

describe('format detection', () => {
  it('tells the four formats apart from their content', () => {
    expect(detectFormat(fixture('claude-session.jsonl'))).toBe('claude');
    expect(detectFormat(fixture('claude-compacted.jsonl'))).toBe('claude');
    expect(detectFormat(fixture('codex-session.jsonl'))).toBe('codex');
    expect(detectFormat(fixture('openai-messages.json'))).toBe('openai');
    expect(detectFormat(fixture('session.md'))).toBe('text');
  });
  it('reads {messages: [...]} objects, JSONL of messages, and falls back to text', () => {
    expect(detectFormat('{\n  "model": "gpt-4o",\n  "messages": [{"role": "user", "content": "hi"}]\n}', { complete: true })).toBe('openai');
    expect(detectFormat('{"role":"user","content":"hi"}\n{"role":"assistant","content":"yo"}\n')).toBe('openai');
    expect(detectFormat('{"foo": 1}\n{"bar": 2}\n', { complete: true })).toBe('text');
    expect(detectFormat('[link](x.md) and more')).toBe('text');
    expect(detectFormat('')).toBe('text');
    expect(detectFormat('\ufeff' + fixture('codex-session.jsonl'))).toBe('codex');
  });
  it('skips leading non-JSON lines when looking for the shape', () => {
    expect(detectFormat(jsonl('{"type":"summary","summary":"x","leafUuid":"a"}', userLine('hi')))).toBe('claude');
  });
});

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

describe('plain text and Markdown', () => {
  it('splits at speaker headings', () => {
    const t = readTextTranscript(fixture('session.md'));
    expect(t.items.map((i) => `${i.line} ${i.role} ${i.kind}`)).toEqual(['3 user message', '7 assistant message', '11 tool tool_result', '18 assistant message', '24 user message']);
    expect(t.items[3].text.split('\n')[1]).toBe('DECISION: keep the systemd timer and delete the cron entry.');
  });
  it('splits at speaker labels, keeping the text after the label', () => {
    const t = readTextTranscript('User: hi there\nmore\nAssistant: hello\n**Tool:** ok');
    expect(t.items.map((i) => [i.line, i.role, i.text])).toEqual([[1, 'user', 'hi there\nmore'], [3, 'assistant', 'hello'], [4, 'tool', 'ok']]);
  });
  it('splits text without speakers into paragraphs, keeping fenced blocks whole', () => {
    const t = readTextTranscript('first para\nline two\n\n```\ncode\n\nmore code\n```\n\nlast');
    expect(t.items.map((i) => [i.line, i.text])).toEqual([[1, 'first para\nline two'], [4, '```\ncode\n\nmore code\n```'], [10, 'last']]);
  });
  it('does not take speaker labels inside fenced blocks', () => {
    const t = readTextTranscript('## User\nshow me\n```\nUser: not a turn\n```\n## Assistant\nok');
    expect(t.items.map((i) => i.role)).toEqual(['user', 'assistant']);
  });
});

describe('changed files', () => {
  it('finds files written by Claude Code, Codex and OpenAI tool calls, leaving out failed calls', () => {
    expect(changedFiles(readTranscript(fixture('claude-session.jsonl')).items)).toEqual([{ path: '/home/dev/shop/src/auth/refresh.ts', tool: 'Edit', line: 8 }]);
    expect(changedFiles(readTranscript(fixture('codex-session.jsonl')).items).map((f) => f.path)).toEqual(['src/routes/login.ts', 'src/middleware/limiter.ts']);
    expect(changedFiles(readTranscript(fixture('openai-messages.json')).items).map((f) => f.path)).toEqual(['src/checkout/pool.ts']);
    const failed = readClaudeTranscript(
      jsonl(
        { type: 'assistant', message: { id: 'm', role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Write', input: { file_path: 'a.ts', content: 'x' } }, { type: 'tool_use', id: 't2', name: 'MultiEdit', input: { file_path: 'b.ts', edits: [] } }, { type: 'tool_use', id: 't3', name: 'Read', input: { file_path: 'c.ts' } }] } },
        { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', is_error: true, content: 'denied' }] } },
      ),
    );
    expect(changedFiles(failed.items).map((f) => `${f.tool} ${f.path}`)).toEqual(['MultiEdit b.ts']);
  });
});

describe('usage from the end of the file', () => {
  const chunked = (text: string, format: string, size: number) => {
    const lines = text.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    const scanner = createUsageScanner(format)!;
    let end = lines.length;
    while (end > 0) {
      const start = Math.max(0, end - size);
      if (scanner.feed(lines.slice(start, end), start === 0)) break;
      end = start;
    }
    if (lines.length === 0) scanner.feed([], true);
    return scanner.result();
  };
  it('finds the same usage as reading the whole file, whatever the chunk size', () => {
    for (const name of ['claude-session.jsonl', 'claude-compacted.jsonl', 'codex-session.jsonl']) {
      const text = fixture(name);
      const whole = readTranscript(text).usage!;
      for (const size of [1, 2, 3, 100]) {
        const r = chunked(text, detectFormat(text), size);
        const { line, model, ...rest } = whole;
        expect(line).toBeGreaterThan(0);
        // Codex names its model in turn_context lines, which the scan reaches only in a large enough chunk
        expect(r.usage).toEqual(name.startsWith('codex') && size < 100 ? rest : { ...rest, model });
      }
    }
  });
  it('reports no usage (count instead) for sidechain-only, boundary without postTokens, and empty input', () => {
    const side = jsonl(userLine('go'), assistant('s', usage(1, 2, 3), { isSidechain: true }));
    expect(chunked(side, 'claude', 1)).toEqual({ usage: null, model: undefined, notes: [{ message: 'only subagent (sidechain) usage is recorded (1 record); it does not measure the main context' }] });
    const noPost = jsonl(assistant('a', usage(1, 2, 150000)), { type: 'system', subtype: 'compact_boundary', compactMetadata: {} }, userLine('x'));
    expect(chunked(noPost, 'claude', 1).usage).toBeNull();
    expect(chunked('', 'claude', 1)).toEqual({ usage: null, model: undefined, notes: [] });
    expect(createUsageScanner('text')).toBeUndefined();
  });
  it('notes a truncated last line and skips non-JSON and bad-usage lines', () => {
    const text = jsonl(assistant('a', usage(1, 1, 1)), assistant('b', usage(-1, 0, 0)), 'garbage') + '{"type":"assistant","mess';
    expect(chunked(text, 'claude', 2)).toEqual({
      usage: { used: 3, model: 'claude-opus-4-1-20250805', source: 'claude-usage' },
      model: 'claude-opus-4-1-20250805',
      notes: [{ message: 'the last line is an incomplete JSON line (truncated write?); ignored' }, { message: '1 line is not JSON and was skipped' }, { message: 'usage ignored: input_tokens is negative (-1)' }],
    });
  });
});
