import { describe, expect, it } from 'vitest';
import { modelPreset, normalizeModelId, resolveWindow, describeWindowSource } from '../../../src/kernel/capacity/index.js';

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
