import { describe, expect, it } from 'vitest';
import { mergeSources, normalizeKey } from '../../../src/kernel/summary/fields.js';

describe('fields', () => {
  it('normalizes snake, kebab and spaced keys to camelCase', () => {
    expect(['changed_files', 'changed-files', 'Changed Files', 'nextSteps', 'next_steps'].map(normalizeKey)).toEqual(['changedFiles', 'changedFiles', 'changedFiles', 'nextSteps', 'nextSteps']);
  });

  it('merges sources in order, dropping empty items and exact repeats', () => {
    const merged = mergeSources([
      { label: 'a', values: { goal: ['G'], progress: ['one', ' two '] } },
      { label: 'b', values: { progress: ['two', 'three', ''], blockers: [] } },
    ]);
    expect(merged).toEqual({ goal: ['G'], progress: ['one', 'two', 'three'] });
  });
});
