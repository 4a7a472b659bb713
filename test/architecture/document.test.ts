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

describe('who writes files', () => {
  it('only store/, cache/ and hooks/ call the file system write functions, as ARCHITECTURE.md says', async () => {
    const { readdirSync } = await import('node:fs');
    const files = (readdirSync(join(REPO, 'src'), { recursive: true }) as string[]).filter((f) => f.endsWith('.ts'));
    const WRITE_NAMES = /^(?:writeFile|appendFile|rename|unlink|rm|rmdir|mkdir|link|symlink|copyFile|truncate|createWriteStream|writeSync)(?:Sync)?$/;
    /** A module that takes a write function from node:fs (named, or through a namespace) or imports write-file-atomic. */
    const writes = (text: string): boolean => {
      if (/['"]write-file-atomic['"]/.test(text)) return true;
      for (const m of text.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*['"](?:node:)?fs(?:\/promises)?['"]/g)) {
        if (m[1].split(',').some((name) => WRITE_NAMES.test(name.trim().split(/\s+as\s+/)[0]))) return true;
      }
      for (const m of text.matchAll(/import\s*\*\s*as\s*(\w+)\s*from\s*['"](?:node:)?fs(?:\/promises)?['"]/g)) {
        if ([...text.matchAll(new RegExp(`\\b${m[1]}\\.(\\w+)\\(`, 'g'))].some((c) => WRITE_NAMES.test(c[1]))) return true;
      }
      // `const { rmSync } = await import('node:fs')`
      return [...text.matchAll(/\{([^}]*)\}\s*=\s*await import\(['"](?:node:)?fs(?:\/promises)?['"]\)/g)].some((m) => m[1].split(',').some((name) => WRITE_NAMES.test(name.trim().split(/\s*:\s*/)[0])));
    };
    const writers = files.filter((f) => writes(readFileSync(join(REPO, 'src', f), 'utf8')));
    expect(writers.length).toBeGreaterThan(3);
    expect(writers.filter((f) => !/^(store|cache|hooks)\//.test(f.split('\\').join('/')))).toEqual([]);
    expect(readFileSync(join(REPO, 'ARCHITECTURE.md'), 'utf8')).toContain('Only `store/`');
  });
});
