import { describe, expect, it } from 'vitest';
import { markedLines } from '../../../../src/commands/flush/extract.js';
import { readTextTranscript } from '../../../../src/kernel/transcript/formats/text.js';

describe('transcript and flush fences use the one fence tracker', () => {
  it('a ``` line inside a ~~~ fence does not close it', () => {
    const text = 'Decision: keep A\n~~~\n```\nDecision: inside\n```\n~~~\nDecision: keep B';
    expect(markedLines(text).map((f) => f.items)).toEqual([['keep A'], ['keep B']]);
  });

  it('a speaker label inside a fenced block does not start a turn', () => {
    const t = readTextTranscript('User: hi\n~~~\n```\nAssistant: not a turn\n```\n~~~\nAssistant: hello\n');
    expect(t.items.map((i) => i.role)).toEqual(['user', 'assistant']);
  });
});
