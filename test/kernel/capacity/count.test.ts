import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../../helpers/cli.js';
import { countTranscript } from '../../../src/kernel/capacity/index.js';
import { loadTokenCounter } from '../../../src/kernel/tokens/index.js';
import { readTranscript } from '../../../src/kernel/transcript/index.js';

describe('counting', () => {
  it('counts the context items exactly and lists the largest with their lines', async () => {
    const counter = await loadTokenCounter();
    const t = readTranscript(readFileSync(join(FIXTURES, 'transcripts', 'openai-messages.json'), 'utf8'));
    const r = countTranscript(t, counter);
    const expected = t.items.reduce((sum, i) => sum + counter.count(i.text) + (i.kind === 'tool_call' ? counter.count(i.toolName!) : 0), 0);
    expect(r.total).toBe(expected);
    expect(r.items).toBe(9);
    expect(r.largest.map((c) => [c.line, c.kind])).toEqual([[24, 'tool_result'], [29, 'tool_call'], [29, 'message'], [2, 'message'], [10, 'tool_call']]);
    expect(r.largest[0].tokens).toBe(counter.count(t.items[3].text));
    expect(r.largest[0]).toMatchObject({ toolName: 'read_file', preview: '1: const pool = createPool({ max: 1 }); // connection 0' });
  });
  it('counts plain text as the whole text', async () => {
    const counter = await loadTokenCounter();
    const text = readFileSync(join(FIXTURES, 'transcripts', 'session.md'), 'utf8');
    const r = countTranscript(readTranscript(text), counter, { text });
    expect(r.total).toBe(counter.count(text));
    expect(r.items).toBe(5);
  });
  it('leaves out items before the last compaction and subagent items', async () => {
    const counter = await loadTokenCounter();
    const t = readTranscript(readFileSync(join(FIXTURES, 'transcripts', 'claude-compacted.jsonl'), 'utf8'));
    const r = countTranscript(t, counter);
    expect(r.items).toBe(1);
    expect(r.total).toBe(counter.count(t.items[2].text));
  });
});
