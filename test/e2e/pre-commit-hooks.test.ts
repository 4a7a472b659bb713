import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REPO } from '../helpers/cli.js';

describe('.pre-commit-hooks.yaml', () => {
  it('ships a check-only index hook and a lint hook for the pre-commit framework', () => {
    const hooks = parse(readFileSync(join(REPO, '.pre-commit-hooks.yaml'), 'utf8'));
    expect(hooks).toHaveLength(2);
    expect(hooks[1]).toEqual(expect.objectContaining({ id: 'memctx-lint', entry: 'memctx lint', language: 'node' }));
    expect(hooks[1].pass_filenames).toBeUndefined();
    expect(hooks[0]).toMatchObject({ id: 'memctx-index', entry: 'memctx index --check', language: 'node', pass_filenames: false });
    const files = new RegExp(hooks[0].files);
    expect(['.memory/a.md', 'pkg/.memory/MEMORY.md'].every((p) => files.test(p))).toBe(true);
    expect(['src/memory.ts', 'x.memory/a.md', 'README.md'].some((p) => files.test(p))).toBe(false);
  });

  it('is listed in package.json files, so it is published', () => {
    const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
    expect(pkg.files).toContain('.pre-commit-hooks.yaml');
    expect(pkg.bin.memctx).toBe('bin/memctx.js');
  });
});
