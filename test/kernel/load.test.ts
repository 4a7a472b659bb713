import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadModule } from '../../src/kernel/load.js';
import { tempDir } from '../helpers/cli.js';

/** A folder of ES modules (`.mjs`), and the URL of a module beside them to resolve from. */
function modules(files: Record<string, string>): string {
  const dir = tempDir();
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return pathToFileURL(join(dir, 'parent.mjs')).href;
}

/** Node >= 20.19 and >= 22.12 can require an ES module (and say so here) unless told not to. */
const canRequireEsm = (process.features as { require_module?: boolean }).require_module === true;

describe('loadModule', () => {
  it.skipIf(!canRequireEsm)('requires an ES module where Node can, without calling the import fallback', async () => {
    const parent = modules({ 'a.mjs': "import { b } from './b.mjs';\nexport const a = 'a' + b;\n", 'b.mjs': "export const b = 'b';\n" });
    let imported = 0;
    const module = await loadModule<{ a: string }>('./a.mjs', parent, async () => {
      imported++;
      return { a: 'from import' };
    });
    expect(module.a).toBe('ab');
    expect(imported).toBe(0);
  });

  it('falls back to the import when the module cannot be required: top-level await, or a missing built file', async () => {
    const parent = modules({ 'waits.mjs': 'export const w = await Promise.resolve(7);\n' });
    const viaImport = { w: 'imported' };
    expect(await loadModule('./waits.mjs', parent, async () => viaImport)).toBe(viaImport);
    expect(await loadModule('./missing.js', parent, async () => viaImport)).toBe(viaImport);
  });

  it('lets an error the module itself throws through, and does not import it a second time', async () => {
    const parent = modules({ 'throws.mjs': "throw new Error('broken module');\n" });
    let imported = 0;
    await expect(
      loadModule('./throws.mjs', parent, async () => {
        imported++;
        return {};
      }),
    ).rejects.toThrow(canRequireEsm ? 'broken module' : '');
    expect(imported).toBe(canRequireEsm ? 0 : 1);
  });
});
