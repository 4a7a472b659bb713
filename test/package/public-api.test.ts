import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as api from '../../src/index.js';

const REPO = join(import.meta.dirname, '../..');

describe('public API (issue 21)', () => {
  it('src/index.ts exports only what the README documents for library users', () => {
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
    const library = readme.slice(readme.indexOf('### Library'), readme.indexOf('## The memory directory'));
    const undocumented = Object.keys(api).filter((name) => !library.includes(`\`${name}\``) && !library.includes(`\`${name}(`));
    // Each operation's schemas are covered by the README's "PackInputSchema, SearchInputSchema, …".
    expect(undocumented.filter((name) => !/^[A-Z][A-Za-z]*(Input|ToolInput|Output)Schema$/.test(name))).toEqual([]);
  });
});
