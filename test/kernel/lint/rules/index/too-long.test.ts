import { describe, expect, it } from 'vitest';
import { lint, lines } from '../../../../helpers/lint.js';

describe('index rules', () => {
  it('too-long: lines and bytes over the limits', async () => {
    const long = `${'x\n'.repeat(201)}`;
    expect(lines(await lint(['index/too-long'], { indexText: long }))).toEqual([
      'MEMORY.md:201:1 index/too-long MEMORY.md has 201 lines, over the 200-line limit: agents never see what comes after line 200; shorten the hand-written text or archive memories (`memctx gc`)',
    ]);
    expect(lines(await lint(['index/too-long'], { indexText: 'x\n'.repeat(200) }))).toEqual([]);
    const wide = `${'é'.repeat(12_600)}\n`;
    expect(lines(await lint(['index/too-long'], { indexText: wide }))).toEqual([
      'MEMORY.md:1:1 index/too-long MEMORY.md is 25201 bytes, over the 25000-byte limit; shorten the hand-written text or archive memories (`memctx gc`)',
    ]);
  });
});
