import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';

const REPO = join(import.meta.dirname, '..');

describe('public API (issue 21)', () => {
  it('src/index.ts exports only what docs/library.md documents for library users', () => {
    const library = readFileSync(join(REPO, 'docs/library.md'), 'utf8');
    const undocumented = Object.keys(api).filter((name) => !library.includes(`\`${name}\``) && !library.includes(`\`${name}(`));
    // Each operation's schemas are covered by docs/library.md's "PackInputSchema, SearchInputSchema, …".
    expect(undocumented.filter((name) => !/^[A-Z][A-Za-z]*(Input|ToolInput|Output)Schema$/.test(name))).toEqual([]);
  });
});
