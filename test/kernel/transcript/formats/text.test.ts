import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../../../helpers/cli.js';
import { readTextTranscript } from '../../../../src/kernel/transcript/index.js';

const fixture = (name: string) => readFileSync(join(FIXTURES, 'transcripts', name), 'utf8');



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
