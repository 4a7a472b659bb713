import { beforeEach, describe, expect, it } from 'vitest';
import { search } from '../../../src/commands/search/search.js';
import { actionProject, now } from '../../helpers/actions.js';
import { ARG_LABEL } from '../../../src/kernel/schema.js';

describe('the command actions, called without the CLI', () => {
  let root: string;
  beforeEach(async () => ({ root } = await actionProject()));

  it('search filters, and search --open returns the best hit', async () => {
    const found = await search({ root, query: 'refresh tokens', limit: 5, open: true }, { now });
    expect(found.hits.map((h) => h.path)).toEqual(['auth.md']);
    expect(found.opened?.path).toBe('auth.md');
    await expect(search({ root, query: 'tokens', limit: 5, type: 'projec', label: ARG_LABEL }, { now })).rejects.toThrow('type must be one of user, feedback, project, reference, other');
    await expect(search({ root, query: 'tokens', limit: 5, minImportance: '11' }, { now })).rejects.toThrow('--min-importance must be a whole number from 1 to 10');
  });
});
