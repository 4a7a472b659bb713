import { describe, expect, it } from 'vitest';
import { contextItems, readTranscript } from '../../../src/kernel/transcript/index.js';
import type { Transcript, TranscriptItem } from '../../../src/kernel/transcript/types.js';

describe('readTranscript', () => {
  it('detects the format, a leading byte-order mark ignored, or takes the one given', () => {
    const line = JSON.stringify({ type: 'user', message: { role: 'user', content: 'hello' }, sessionId: 's1', timestamp: '2026-11-21T10:00:00Z' });
    const claude = readTranscript(`\ufeff${line}\n`);
    expect(claude.format).toBe('claude');
    expect(claude.items.map((i) => [i.role, i.text])).toEqual([['user', 'hello']]);
    expect(readTranscript(`${line}\n`, { format: 'text' }).format).toBe('text');
  });
});

describe('contextItems', () => {
  it('are the items after the last compaction, subagent items left out', () => {
    const item = (text: string, sidechain?: boolean): TranscriptItem => ({ role: 'user', kind: 'message', text, line: 1, ...(sidechain ? { sidechain } : {}) });
    const t = { items: [item('before'), item('summary'), item('side', true), item('after')], contextStart: 1 } as Transcript;
    expect(contextItems(t).map((i) => i.text)).toEqual(['summary', 'after']);
  });
});
