import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { packBundle, packBundleParts } from '../../../../src/kernel/bundle/select.js';
import { scoreFiles } from '../../../../src/kernel/rank/score.js';
import { loadTokenCounterSync } from '../../../../src/kernel/tokens/index.js';
import { writeFileAtomic } from '../../../../src/kernel/store/write.js';
import { runMemctx } from '../../../helpers/run.js';
import { removeDir, tempDir } from '../../../helpers/cli.js';
import { NOW, memory } from '../../../helpers/pack-files.js';

const o200k = loadTokenCounterSync('o200k_base');
const count = (t: string) => o200k.count(t);
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

// Bodies in ASCII, Latin-1, two-byte and astral text: the bundle's framing (`·`, `—`) is not all ASCII either.
const files = [
  memory('a.md', { name: 'A', description: 'plain' }, 'Only ASCII here.\n'),
  memory('b.md', { name: 'B', description: 'café' }, 'Crème brûlée, naïve façade.\n'),
  memory('c.md', { name: 'C', description: 'wide' }, '日本語のメモ — 🚀 launch notes.\n'),
];

describe('the bundle in parts', () => {
  it('joins to the text packBundle returns, and is written byte for byte as that text in UTF-8', async () => {
    const input = { files, scores: scoreFiles(files, { now: NOW }), indexLines: ['- [A](a.md) — plain'], budget: 5000, format: 'markdown' as const, encoding: 'o200k_base' as const, count };
    const { result, parts } = packBundleParts(input);
    expect(parts.join('')).toBe(result.text);
    expect(result.text).toBe(packBundle(input).text);
    expect(result.text).toContain('🚀');
    const dir = tempDir();
    dirs.push(dir);
    await writeFileAtomic(join(dir, 'bundle.md'), parts, { fsync: false });
    expect(readFileSync(join(dir, 'bundle.md'))).toEqual(Buffer.from(result.text, 'utf8'));
  });

  it('pack --out writes the same bytes pack prints', async () => {
    const cwd = tempDir();
    dirs.push(cwd);
    const root = join(cwd, '.memory');
    mkdirSync(root);
    writeFileSync(join(root, 'MEMORY.md'), '# Memory\n');
    writeFileSync(join(root, 'wide.md'), '---\nname: Wide\ndescription: ü and 日本\n---\n日本語 — 🚀 and café.\n');
    const written = await runMemctx(['--dir', root, 'pack', '--out', join(cwd, 'out.md')], { cwd, now: NOW });
    expect(written.code).toBe(0);
    const printed = await runMemctx(['--dir', root, 'pack'], { cwd, now: NOW });
    expect(printed.code).toBe(0);
    expect(printed.stdout).toContain('🚀');
    expect(readFileSync(join(cwd, 'out.md'), 'utf8')).toBe(printed.stdout);
  });
});
