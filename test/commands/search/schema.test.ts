import { describe, expect, it } from 'vitest';
import { SearchInput } from '../../../src/commands/search/schema.js';
import { ARG_LABEL, CLI_LABEL, parseInput } from '../../../src/kernel/schema.js';

describe('SearchInput', () => {
  it('takes a query and the filters, as given', () => {
    const input = { query: 'auth tokens', limit: 100, type: 'project', kind: 'note', tag: 'db', min_importance: 3, since: '7d' };
    expect(parseInput(SearchInput, input, ARG_LABEL)).toEqual(input);
  });

  it('refuses an empty query, a limit past 100 and an importance outside 1-10, naming the field', () => {
    expect(() => parseInput(SearchInput, { query: '  ' }, ARG_LABEL)).toThrow('query is empty (only white space)');
    expect(() => parseInput(SearchInput, { query: 'x', limit: 101 }, ARG_LABEL)).toThrow('limit must be a whole number from 1 to 100, got 101');
    expect(() => parseInput(SearchInput, { query: 'x', limit: 2.5 }, ARG_LABEL)).toThrow('limit must be a whole number from 1 to 100, got 2.5');
    expect(() => parseInput(SearchInput, { query: 'x', min_importance: 0 }, CLI_LABEL)).toThrow('--min-importance must be a whole number from 1 to 10, got 0');
    expect(() => parseInput(SearchInput, { query: 'x', sort: 'date' }, ARG_LABEL)).toThrow('unknown argument sort');
  });
});
