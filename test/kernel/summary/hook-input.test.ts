import { describe, expect, it } from 'vitest';
import { parseHookInput, HookInputError } from '../../../src/kernel/summary/hook-input.js';

describe('hook input', () => {
  it('reads SessionEnd and PreCompact JSON', () => {
    expect(parseHookInput('{"session_id":"abc","transcript_path":"/t.jsonl","cwd":"/p","hook_event_name":"SessionEnd","reason":"clear"}')).toEqual({ sessionId: 'abc', transcriptPath: '/t.jsonl', cwd: '/p', event: 'SessionEnd', reason: 'clear' });
    expect(parseHookInput('{"session_id":"abc","hook_event_name":"PreCompact","trigger":"auto"}')).toEqual({ sessionId: 'abc', transcriptPath: undefined, cwd: undefined, event: 'PreCompact', reason: 'auto' });
  });

  it('refuses garbage, empty input, non-objects and wrong types', () => {
    for (const bad of ['garbage{', '', '[1]', '{"cwd": 3}']) expect(() => parseHookInput(bad)).toThrow(HookInputError);
  });
});
