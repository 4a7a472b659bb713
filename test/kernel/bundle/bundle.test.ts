import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pack } from '../../../src/kernel/bundle/bundle.js';
import { loadTokenCounterSync } from '../../../src/kernel/tokens/count.js';
import { removeDir, tempDir } from '../../helpers/cli.js';

const NOW = new Date('2026-11-22T12:00:00Z');
const o200k = loadTokenCounterSync('o200k_base');
let dir = '';
afterEach(() => removeDir(dir));

function memoryDir(files: Record<string, string>): string {
  dir = tempDir();
  const root = join(dir, '.memory');
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'MEMORY.md'), '# Memory\n');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const front = (name: string) => `---\nname: ${name}\ndescription: chat\ntype: project\n---\n\n`;
const turns = (n: number, seed: string) => Array.from({ length: n }, (_, i) => `**Bo:** Turn ${i} of ${seed} is about the weather, the garden and some recipes, at length.`).join('\n\n');

describe('a second long file and the room still left', () => {
  it('gives a long lower-ranked file passages once a first file went in whole, so a third file fits', async () => {
    const first = `**Ann:** My greyhound Biscuit loves the beach, my greyhound Biscuit naps all day.`;
    const second = '**Ann:** Biscuit the greyhound chased a hare in the park.';
    const third = '**Ann:** I bought Biscuit a new collar at the market.';
    const root = memoryDir({
      'sessions/a.md': `${front('A')}${first}\n\n${turns(18, 'a')}\n`,
      'sessions/b.md': `${front('B')}${turns(21, 'b1')}\n\n${second}\n\n${turns(21, 'b2')}\n`,
      'sessions/c.md': `${front('C')}${third}\n\n${turns(16, 'c')}\n`,
    });
    const result = await pack({ root, budget: 2000, task: 'what does my greyhound Biscuit do?', format: 'markdown', encoding: 'o200k_base' }, { now: () => NOW, env: {} });
    expect(o200k.count(result.text)).toBeLessThanOrEqual(2000);
    expect(result.tokens).toBe(o200k.count(result.text));
    const tiers = Object.fromEntries(result.files.map((f) => [f.path, f.tier]));
    // b.md (about 1,000 tokens, task 0.55) would fit its share of the whole room, not of the room left after a.md.
    expect(tiers).toEqual({ 'sessions/a.md': 'full', 'sessions/b.md': 'passages', 'sessions/c.md': 'full' });
    for (const line of [first, second, third]) expect(result.text).toContain(line);
  });
});
