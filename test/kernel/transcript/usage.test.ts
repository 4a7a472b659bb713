import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../../helpers/cli.js';
import { createUsageScanner, detectFormat, readTranscript } from '../../../src/kernel/transcript/index.js';

const fixture = (name: string) => readFileSync(join(FIXTURES, 'transcripts', name), 'utf8');

const jsonl = (...lines: unknown[]) => lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n';

const usage = (input: unknown, create: unknown = 0, read: unknown = 0) => ({ input_tokens: input, cache_creation_input_tokens: create, cache_read_input_tokens: read, output_tokens: 5 });

const assistant = (id: string, u: unknown, extra: Record<string, unknown> = {}) => ({ type: 'assistant', isSidechain: false, message: { id, role: 'assistant', model: 'claude-opus-4-1-20250805', content: [{ type: 'text', text: `reply ${id}` }], usage: u }, ...extra });

const userLine = (text: string) => ({ type: 'user', isSidechain: false, message: { role: 'user', content: text } });

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
