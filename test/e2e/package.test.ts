import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.js';

const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
const dep = (name: string) => JSON.parse(readFileSync(join(REPO, 'node_modules', name, 'package.json'), 'utf8'));

describe('the npm package', () => {
  it('ships a LICENSE matching "license", and no benchmark code', () => {
    expect(pkg.license).toBe('MIT');
    expect(readFileSync(join(REPO, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n/);
    expect(pkg.files).toEqual(expect.arrayContaining(['bin/', 'dist/src/', 'schema/', 'docs/', 'LICENSE', 'README.md', '.pre-commit-hooks.yaml']));
    expect(pkg.files).not.toContain('dist/');
    expect(existsSync(join(REPO, 'node_trace.1.log'))).toBe(false);
  });

  it('builds in prepack with foreground scripts off, so `npm pack` prints only the tarball name', () => {
    // prepare builds only an install from git (pre-commit 4.x: npm install -g git+file://…) that has no dist/ yet.
    expect(pkg.scripts.prepare).toBe('node scripts/prepare.mjs');
    expect(pkg.scripts.prepack).toBe('npm run build && node scripts/pack-manifest.mjs strip');
    expect(pkg.scripts.postpack).toBe('node scripts/pack-manifest.mjs restore');
    // The build also writes the tokenizer's rank tables beside the built module (dist/src/, in `files`)
    // and what the built CLI would otherwise compute on every run (the cached-code hash, tools/list).
    expect(pkg.scripts.build).toBe('tsc -p tsconfig.json && node scripts/build-ranks.mjs && node scripts/build-info.mjs');
    expect(readFileSync(join(REPO, '.npmrc'), 'utf8')).toMatch(/^foreground-scripts=false$/m);
  });

  it('asks for the Node versions its dependencies need', () => {
    expect(pkg.engines.node).toBe('^20.17.0 || >=22.9.0');
    expect(dep('commander').engines.node).toBe('>=20');
    expect(dep('@modelcontextprotocol/sdk').engines.node).toBe('>=18');
  });

  it('exports the memory-tool handlers and the config schema', () => {
    expect(pkg.exports['./memory-tool']).toEqual({ types: './dist/src/memory-tool.d.ts', import: './dist/src/memory-tool.js' });
    expect(pkg.exports['./schema/memctx.config.schema.json']).toBe('./schema/memctx.config.schema.json');
    expect(pkg.peerDependencies?.['@anthropic-ai/sdk']).toBeUndefined();
    expect(pkg.devDependencies['@anthropic-ai/sdk']).toBeDefined();
  });
});
