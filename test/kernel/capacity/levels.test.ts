import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../../helpers/cli.js';
import { ADVICE, atLeast, bar, capacity, countTranscript, formatPercent, levelFor, modelPreset, normalizeModelId, resolveWindow, thresholdsProblem, describeWindowSource } from '../../../src/kernel/capacity/index.js';
import { loadTokenCounter } from '../../../src/kernel/tokens/index.js';
import { readTranscript } from '../../../src/kernel/transcript/index.js';

describe('levels', () => {
  it('puts the boundaries where design §6 does: <80 green, 80-89 yellow, 90-94 orange, ≥95 red', () => {
    const cases: [number, string][] = [[0, 'green'], [79.99, 'green'], [80, 'yellow'], [89.99, 'yellow'], [90, 'orange'], [94.99, 'orange'], [95, 'red'], [130, 'red']];
    for (const [p, level] of cases) expect([p, levelFor(p)]).toEqual([p, level]);
  });
  it('computes used / window and the advice', () => {
    expect(capacity(161_506, 200_000)).toEqual({ used: 161_506, window: 200_000, percent: 80.753, level: 'yellow', advice: ADVICE.yellow });
    expect(capacity(190_000, 200_000).advice).toBe('Emergency compaction: compact now and shed low-priority content.');
    expect(capacity(180_000, 200_000).advice).toBe('Compact now, before the next major operation; defer non-critical file loads.');
    expect(capacity(159_999, 200_000).level).toBe('green');
  });
  it('takes configurable thresholds and refuses unusable ones', () => {
    expect(capacity(70, 100, { yellow: 60, orange: 70, red: 90 }).level).toBe('orange');
    expect(thresholdsProblem({ yellow: 80, orange: 90, red: 95 })).toBeUndefined();
    expect(thresholdsProblem({ yellow: 90, orange: 80, red: 95 })).toBe('thresholds must rise: yellow < orange < red, got 90, 80, 95');
    expect(thresholdsProblem({ yellow: 0, orange: 80, red: 95 })).toBe('the yellow threshold must be a percentage above 0 and at most 100, got 0');
    expect(thresholdsProblem({ yellow: 50, orange: 80, red: 101 })).toBe('the red threshold must be a percentage above 0 and at most 100, got 101');
  });
  it('refuses a window of 0 or less and negative usage', () => {
    expect(() => capacity(10, 0)).toThrow('the context window must be a positive number of tokens, got 0');
    expect(() => capacity(10, -5)).toThrow(RangeError);
    expect(() => capacity(-1, 100)).toThrow('used tokens must be zero or more, got -1');
  });
  it('orders levels for --fail-on', () => {
    expect(atLeast('orange', 'yellow')).toBe(true);
    expect(atLeast('yellow', 'yellow')).toBe(true);
    expect(atLeast('yellow', 'orange')).toBe(false);
    expect(atLeast('green', 'yellow')).toBe(false);
  });
  it('formats percentages rounded down and bars capped at full', () => {
    expect(formatPercent(89.96)).toBe('89.9%');
    expect(formatPercent(0)).toBe('0.0%');
    expect(bar(50, 10)).toEqual({ filled: '█████', empty: '░░░░░' });
    expect(bar(250, 4)).toEqual({ filled: '████', empty: '' });
  });
});

describe('model presets', () => {
  it('knows the windows the issue lists', () => {
    const w = (id: string) => modelPreset(id)?.window;
    expect(w('claude-sonnet-4-5-20250929')).toBe(200_000);
    expect(w('claude-opus-4-1-20250805')).toBe(200_000);
    expect(w('claude-3-5-haiku-20241022')).toBe(200_000);
    expect(w('sonnet[1m]')).toBe(1_000_000);
    expect(w('claude-sonnet-4-5-20250929[1m]')).toBe(1_000_000);
    expect(w('gpt-4o')).toBe(128_000);
    expect(w('openai/gpt-4o-mini')).toBe(128_000);
    expect(w('gpt-4.1-mini')).toBe(1_047_576);
    expect(w('gpt-5')).toBe(258_400);
    expect(w('gpt-5-codex')).toBe(258_400);
    expect(w('gemini-2.5-pro')).toBe(1_048_576);
    expect(w('models/gemini-2.5-flash')).toBe(1_048_576);
    expect(w('us.anthropic.claude-sonnet-4-5-20250929-v1:0')).toBe(200_000);
    expect(w('claude-opus-4-1@20250805')).toBe(200_000);
    expect(w('llama-3')).toBeUndefined();
    expect(w('')).toBeUndefined();
  });
  it('normalises provider prefixes and version suffixes', () => {
    expect(normalizeModelId(' Anthropic/Claude-Sonnet-4-5 ')).toBe('claude-sonnet-4-5');
    expect(normalizeModelId('us.anthropic.claude-opus-4-1-20250805-v1:0')).toBe('claude-opus-4-1-20250805');
  });
  it('resolves the window: --window, --model, recorded, transcript model, default', () => {
    expect(resolveWindow({ window: 5000, model: 'gpt-4o', recordedWindow: 272000 })).toEqual({ window: 5000, source: 'option' });
    expect(resolveWindow({ model: 'gpt-4o', recordedWindow: 272000 })).toEqual({ window: 128_000, source: 'model-option', preset: 'GPT-4o' });
    expect(resolveWindow({ recordedWindow: 272000, transcriptModel: 'gpt-5-codex' })).toEqual({ window: 272_000, source: 'recorded' });
    expect(resolveWindow({ transcriptModel: 'gpt-5-codex' })).toEqual({ window: 258_400, source: 'model', preset: 'GPT-5' });
    expect(resolveWindow({ transcriptModel: 'mystery-1' })).toEqual({ window: 200_000, source: 'default' });
    expect(resolveWindow({})).toEqual({ window: 200_000, source: 'default' });
  });
  it('takes the 1M window for a Claude transcript whose usage exceeds 200k, and says why', () => {
    expect(resolveWindow({ transcriptModel: 'claude-sonnet-4-5-20250929', used: 350_000 })).toMatchObject({ window: 1_000_000, source: 'model-extended' });
    expect(resolveWindow({ transcriptModel: 'claude-sonnet-4-5-20250929', used: 150_000 })).toMatchObject({ window: 200_000, source: 'model' });
    // a real 1M-context Opus 4.6 session records `claude-opus-4-6` without [1m]
    const opus = resolveWindow({ transcriptModel: 'claude-opus-4-6', used: 353_000 });
    expect(opus).toEqual({ window: 1_000_000, source: 'model-extended', preset: 'Claude Opus 4.6' });
    expect(describeWindowSource(opus)).toBe('Claude Opus 4.6 with its 1M window, since usage exceeds 200,000');
    expect(resolveWindow({ transcriptModel: 'claude-opus-4-1-20250805', used: 350_000 })).toMatchObject({ window: 1_000_000, source: 'model-extended' });
  });
});

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
