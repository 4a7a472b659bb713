// ARCHITECTURE.md stays true of the tree: every source folder and module it names in backticks exists.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.js';

/** Names that are places in a memory directory or a test tree, not source modules. */
const NOT_SOURCE = new Set(['.memctx/', '.memory/', 'sessions/', 'templates/', 'archive/', 'test/e2e/']);

describe('ARCHITECTURE.md', () => {
  it('names only folders and modules that exist', () => {
    const text = readFileSync(join(REPO, 'ARCHITECTURE.md'), 'utf8');
    const named = new Set<string>();
    for (const m of text.matchAll(/`([A-Za-z][\w.-]*(?:\/[\w.-]+)*(?:\/|\.ts|\.js))`/g)) named.add(m[1]);
    // The diagram's folder column too.
    for (const m of text.matchAll(/(?:^|[\s│])([a-z][\w-]*\/)(?=[\s(]|$)/gm)) named.add(m[1]);
    const missing = [...named].filter((p) => !NOT_SOURCE.has(p) && !existsSync(join(REPO, 'src', p)) && !existsSync(join(REPO, p)));
    expect(named.size).toBeGreaterThan(20);
    expect(missing).toEqual([]);
  });
});
