import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.js';

const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; peerDependencies?: Record<string, string> };

/** The peer dependencies of a package, from its installed package.json. */
function peersOf(name: string): string[] {
  const manifest = JSON.parse(readFileSync(join(REPO, 'node_modules', name, 'package.json'), 'utf8')) as { peerDependencies?: Record<string, string> };
  return Object.keys(manifest.peerDependencies ?? {});
}

/** The packages the sources import at run time (type-only imports aside). */
function runtimeImports(): Map<string, string> {
  const found = new Map<string, string>();
  const files = readdirSync(join(REPO, 'src'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
  for (const file of files) {
    const text = readFileSync(join(REPO, 'src', file), 'utf8');
    const specifiers = [
      ...[...text.matchAll(/^import\s+(?!type\s)[^'"]*?from\s+'([^']+)'/gm)].map((m) => m[1]),
      ...[...text.matchAll(/^import\s+'([^']+)'/gm)].map((m) => m[1]),
      // a re-export loads its module as an import does (src/mcp/sdk.ts)
      ...[...text.matchAll(/^export\s+(?!type\s)[^'"]*?from\s+'([^']+)'/gm)].map((m) => m[1]),
      ...[...text.matchAll(/(?<!typeof )\bimport\('([^']+)'\)/g)].map((m) => m[1]),
      // createRequire(import.meta.url)('yaml'), and a package found by its folder (js-tiktoken's rank files)
      ...[...text.matchAll(/\)\('([^'.][^']*)'\)/g)].map((m) => m[1]),
      ...[...text.matchAll(/'node_modules', '([^']+)'/g)].map((m) => m[1]),
    ];
    for (const spec of specifiers) {
      if (spec.startsWith('.') || spec.startsWith('node:') || builtinModules.includes(spec)) continue;
      const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
      if (!found.has(name)) found.set(name, file);
    }
  }
  return found;
}

describe('runtime dependencies', () => {
  it('every package the sources import at run time is a dependency (or a peer), so an install from npm runs', () => {
    const imports = runtimeImports();
    expect(imports.size).toBeGreaterThan(5);
    const missing = [...imports].filter(([name]) => !(name in pkg.dependencies) && !(name in (pkg.peerDependencies ?? {}))).map(([name, file]) => `${name} (src/${file})`);
    expect(missing).toEqual([]);
  });

  it('every dependency is imported at run time, or is a peer of one that is: nothing is installed for bench or tests only', () => {
    const imported = [...runtimeImports().keys()];
    const peers = new Set(imported.flatMap(peersOf));
    const unused = Object.keys(pkg.dependencies).filter((name) => !imported.includes(name) && !peers.has(name));
    expect(unused).toEqual([]);
  });
});
