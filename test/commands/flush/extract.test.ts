import { describe, expect, it } from 'vitest';
import { extractFromTranscript, markedLines, type ExtractItem } from '../../../src/commands/flush/extract.js';
import { readTranscript } from '../../../src/kernel/transcript/index.js';

describe('marked lines', () => {
  it('finds markers in their common spellings, with the text after them', () => {
    const text = [
      'DECISION: use RS256',
      '- **Decision:** keep cookies for now',
      '**Blocker**: staging is down',
      '> TODO: rotate keys',
      '1. Next steps: ship it',
      'Note: not a marker',
      'GOAL: finish auth',
      'Done: login works',
    ].join('\n');
    expect(markedLines(text)).toEqual([
      { marker: 'decisions', items: ['use RS256'] },
      { marker: 'decisions', items: ['keep cookies for now'] },
      { marker: 'blockers', items: ['staging is down'] },
      { marker: 'todo', items: ['rotate keys'] },
      { marker: 'next', items: ['ship it'] },
      { marker: 'goal', items: ['finish auth'] },
      { marker: 'progress', items: ['login works'] },
    ]);
  });

  it('a marker with nothing after it takes the list that follows', () => {
    expect(markedLines('Next steps:\n\n- one\n2. two\n* [ ] three\n\nafter')).toEqual([{ marker: 'next', items: ['one', 'two', 'three'] }]);
    expect(markedLines('Blockers:\nnothing listed')).toEqual([]);
  });

  it('ignores markers inside fenced code', () => {
    expect(markedLines('```ts\n// TODO: not this\n```\nTODO: this')).toEqual([{ marker: 'todo', items: ['this'] }]);
  });
});

describe('extractFromTranscript', () => {
  const item = (role: string, text: string, extra: Partial<ExtractItem> = {}): ExtractItem => ({ role: role as ExtractItem['role'], kind: 'message', text, ...extra });

  it('keeps the first real request, every decision and blocker, TODOs and the last Next steps', () => {
    const out = extractFromTranscript([
      item('user', '<command-name>/model</command-name>'),
      item('user', 'Caveat: local commands'),
      item('user', '  Fix the flaky login test\nit fails on CI'),
      item('assistant', 'DECISION: retry once\nNext steps:\n- old step'),
      item('tool', 'DECISION: from tool output', { kind: 'tool_result' }),
      item('assistant', 'BLOCKER: sidechain', { sidechain: true }),
      item('assistant', 'TODO: add a timeout\nDECISION: retry once\nNext steps:\n- new step'),
      item('user', 'BLOCKER: CI runner is slow'),
    ]);
    expect(out).toEqual({
      goal: [],
      progress: [],
      decisions: ['retry once'],
      blockers: ['CI runner is slow'],
      nextSteps: ['add a timeout', 'new step'],
      request: 'Fix the flaky login test',
    });
  });

  it('reads items from each transcript format through the readers', () => {
    const openai = JSON.stringify({ messages: [{ role: 'user', content: 'Speed up search' }, { role: 'assistant', content: 'DECISION: cache the index' }] });
    expect(extractFromTranscript(readTranscript(openai).items)).toMatchObject({ decisions: ['cache the index'], request: 'Speed up search' });
    const codex = [
      { type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Port the parser' }] } },
      { type: 'response_item', payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'BLOCKER: no grammar spec' }] } },
    ].map((o) => JSON.stringify(o)).join('\n');
    expect(extractFromTranscript(readTranscript(codex).items)).toMatchObject({ blockers: ['no grammar spec'], request: 'Port the parser' });
  });
});
