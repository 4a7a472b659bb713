import { describe, expect, it } from 'vitest';
import { blockItems, contentText, inputText, normalizeRole, parseArguments } from '../../../src/kernel/transcript/content.js';

describe('contentText', () => {
  it('takes a string, an object with text, or the text blocks of a list (images and documents as markers, thinking left out)', () => {
    expect(contentText('plain')).toBe('plain');
    expect(contentText({ type: 'text', text: 'one' })).toBe('one');
    expect(contentText(42)).toBe('');
    expect(
      contentText(['a', { type: 'input_text', text: 'b' }, { type: 'thinking', text: 'hidden' }, { type: 'image' }, { type: 'input_image' }, { type: 'document' }, { type: 'other' }, null]),
    ).toBe('a\nb\n[image]\n[image]\n[document]');
  });
});

describe('inputText and parseArguments', () => {
  it("gives a tool input's text: strings as they are, anything else as JSON", () => {
    expect(inputText('ls -la')).toBe('ls -la');
    expect(inputText(undefined)).toBe('');
    expect(inputText({ command: 'ls', n: 1 })).toBe('{"command":"ls","n":1}');
  });

  it('parses a JSON arguments string, keeping one that is not JSON', () => {
    expect(parseArguments('{"path":"a.ts"}')).toEqual({ path: 'a.ts' });
    expect(parseArguments('*** Begin Patch')).toBe('*** Begin Patch');
    expect(parseArguments({ already: true })).toEqual({ already: true });
  });
});

describe('normalizeRole', () => {
  it('maps each agent’s role names onto four roles', () => {
    expect(['user', 'human', 'assistant', 'ai', 'model', 'system', 'developer', 'tool', 'function', 'bot', undefined].map(normalizeRole)).toEqual([
      'user',
      'user',
      'assistant',
      'assistant',
      'assistant',
      'system',
      'system',
      'tool',
      'tool',
      'unknown',
      'unknown',
    ]);
  });
});

describe('blockItems', () => {
  it('turns content that is not a list into one message, or none when it has no text', () => {
    expect(blockItems('hello', 'user', 3, new Map())).toEqual([{ role: 'user', kind: 'message', text: 'hello', line: 3 }]);
    expect(blockItems({ type: 'image' }, 'user', 3, new Map())).toEqual([]);
  });

  it('joins text blocks into messages around tool calls and results, naming results by their call id', () => {
    const names = new Map<string, string>();
    const call = blockItems(['thinking out loud', { type: 'text', text: 'I will list files' }, { type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls' } }, { type: 'text', text: 'done' }], 'assistant', 7, names);
    expect(call).toEqual([
      { role: 'assistant', kind: 'message', text: 'thinking out loud\nI will list files', line: 7 },
      { role: 'assistant', kind: 'tool_call', text: '{"command":"ls"}', line: 7, toolName: 'Bash', toolInput: { command: 'ls' }, toolId: 't1' },
      { role: 'assistant', kind: 'message', text: 'done', line: 7 },
    ]);
    expect(names.get('t1')).toBe('Bash');
    const result = blockItems([{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'a.ts' }], is_error: true }, { type: 'web_search_tool_result', content: 'found' }], 'user', 8, names);
    expect(result).toEqual([
      { role: 'tool', kind: 'tool_result', text: 'a.ts', line: 8, toolId: 't1', toolName: 'Bash', isError: true },
      { role: 'tool', kind: 'tool_result', text: 'found', line: 8, toolId: undefined },
    ]);
  });

  it('names a call without a name "tool" and records no id it was not given', () => {
    const names = new Map<string, string>();
    expect(blockItems([{ type: 'server_tool_use', input: 'q' }], 'assistant', 1, names)).toEqual([{ role: 'assistant', kind: 'tool_call', text: 'q', line: 1, toolName: 'tool', toolInput: 'q', toolId: undefined }]);
    expect(names.size).toBe(0);
  });
});
