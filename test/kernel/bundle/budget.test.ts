import { describe, expect, it } from 'vitest';
import { BudgetError, modelWindow, parseBudget, resolveWindow } from '../../../src/kernel/bundle/budget.js';

describe('--budget', () => {
  it.each([
    ['25000', undefined, 25000],
    [' 800 ', undefined, 800],
    ['10%', 200_000, 20_000],
    ['12.5%', 200_000, 25_000],
    ['100%', 1000, 1000],
    ['33%', 1001, 330],
  ])('%s of window %s is %s tokens', (value, window, tokens) => {
    expect(parseBudget(value, window)).toBe(tokens);
  });

  it.each([
    ['0', undefined, 'positive number of tokens'],
    ['-5', undefined, 'positive number of tokens'],
    ['abc', undefined, 'positive number of tokens'],
    ['1e3', undefined, 'positive number of tokens'],
    ['2.5', undefined, 'positive number of tokens'],
    ['', undefined, 'positive number of tokens'],
    ['10%', undefined, 'no context window was given'],
    ['0%', 1000, 'above 0 and at most 100'],
    ['150%', 1000, 'above 0 and at most 100'],
    ['0.01%', 1000, 'less than one token'],
  ])('refuses %s (window %s)', (value, window, message) => {
    expect(() => parseBudget(value, window)).toThrow(BudgetError);
    expect(() => parseBudget(value, window)).toThrow(message);
  });
});

describe('--window and --model', () => {
  it('reads the window from --window first, else from the model id', () => {
    expect(resolveWindow({})).toBeUndefined();
    expect(resolveWindow({ window: '128000', model: 'claude-sonnet-4-5' })).toBe(128_000);
    expect(resolveWindow({ model: 'claude-sonnet-4-5' })).toBe(200_000);
    expect(() => resolveWindow({ window: '0' })).toThrow('--window must be a positive number of tokens');
    expect(() => resolveWindow({ model: 'llama-9' })).toThrow('unknown --model "llama-9"');
  });

  it.each([
    ['claude-opus-4-1', 200_000],
    ['claude-sonnet-4-5[1m]', 1_000_000],
    ['gpt-4o-mini', 128_000],
    ['gpt-4.1-mini', 1_047_576],
    ['gpt-5', 258_400],
    ['GPT-5-codex', 258_400],
    ['gemini-2.5-pro', 1_048_576],
    ['o3-pro', 200_000],
    ['mistral-large', undefined],
  ])('%s has a %s-token window', (model, window) => {
    expect(modelWindow(model)).toBe(window);
  });
});
