import { describe, expect, it } from 'vitest';
import { statusline } from '../../../src/kernel/capacity/statusline.js';

const deps = { cwd: '/nowhere' };

describe('statusline', () => {
  it("takes Claude Code's own percentage of its own window", async () => {
    const input = JSON.stringify({ model: { id: 'claude-sonnet-4-5', display_name: 'Sonnet' }, context_window: { used_percentage: 83, context_window_size: 200000 } });
    expect(await statusline(input, {}, deps)).toEqual({ figure: { level: 'yellow', percent: 83, used: 166000, window: 200000, model: 'Sonnet' }, label: 'Sonnet' });
  });

  it('else the tokens it reports in use, against its window', async () => {
    const input = JSON.stringify({ context_window: { context_window_size: 1000000, current_usage: { input_tokens: 10, cache_read_input_tokens: 949990 } } });
    expect(await statusline(input, {}, deps)).toEqual({ figure: { level: 'red', percent: 95, used: 950000, window: 1000000 } });
  });

  it('thresholds from the options move the level', async () => {
    const input = JSON.stringify({ context_window: { used_percentage: 83, context_window_size: 200000 } });
    expect((await statusline(input, { thresholds: '50,60,70' }, deps)).figure?.level).toBe('red');
  });

  it('--window overrides the window Claude Code reports; a bad one gives no figure, the model kept', async () => {
    const input = JSON.stringify({ model: { id: 'claude-sonnet-4-5' }, context_window: { current_usage: { input_tokens: 100000 }, context_window_size: 200000 } });
    expect(await statusline(input, { window: '500k' }, deps)).toEqual({ figure: { level: 'green', percent: 20, used: 100000, window: 500000, model: 'claude-sonnet-4-5' }, label: 'claude-sonnet-4-5' });
    expect(await statusline(input, { window: '-3' }, deps)).toEqual({ label: 'claude-sonnet-4-5' });
  });

  it('nothing to measure: no figure, the model kept; not JSON: nothing', async () => {
    expect(await statusline(JSON.stringify({ model: { id: 'gpt-5' } }), {}, deps)).toEqual({ label: 'gpt-5' });
    expect(await statusline('not json', {}, deps)).toEqual({});
    expect(await statusline(JSON.stringify({ model: { display_name: 'Opus' }, transcript_path: '/nowhere/t.jsonl' }), {}, deps)).toEqual({ label: 'Opus' });
  });
});
