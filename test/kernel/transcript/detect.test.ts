import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../../helpers/cli.js';
import { detectFormat } from '../../../src/kernel/transcript/index.js';
import { transcriptBody } from '../../../src/kernel/transcript/detect.js';

const fixture = (name: string) => readFileSync(join(FIXTURES, 'transcripts', name), 'utf8');

const jsonl = (...lines: unknown[]) => lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n';



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

describe('transcriptBody', () => {
  it('drops a leading BOM, detects the format from the whole text, and keeps a format given', () => {
    const text = fixture('claude-session.jsonl');
    expect(transcriptBody(`\ufeff${text}`)).toEqual({ body: text, format: 'claude' });
    expect(transcriptBody(text, 'text')).toEqual({ body: text, format: 'text' });
    expect(transcriptBody('\ufeffplain words')).toEqual({ body: 'plain words', format: 'text' });
  });
});
