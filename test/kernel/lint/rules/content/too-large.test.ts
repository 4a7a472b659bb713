import { describe, expect, it } from 'vitest';
import type { TokenCounter } from '../../../../../src/kernel/tokens/index.js';
import { VALID, doc, lint, lines, mem } from '../../../../helpers/lint.js';

describe('content rules', () => {
  const counter: TokenCounter = { encoding: 'o200k_base', count: (text) => text.split(/\s+/).filter(Boolean).length };

  it('too-large: exact counts over the limit; small files never reach the tokenizer', async () => {
    let loads = 0;
    const tokens = async () => {
      loads++;
      return counter;
    };
    const small = mem('small.md', doc(VALID, 'word '.repeat(100)));
    expect(lines(await lint(['content/too-large'], { files: [small], tokens }))).toEqual([]);
    expect(loads).toBe(0);
    const big = mem('big.md', doc(VALID, 'word '.repeat(2100)));
    expect(lines(await lint(['content/too-large'], { files: [small, big], tokens }))).toEqual([
      'big.md:1:1 content/too-large 2114 tokens, over the 2000-token limit; split it into smaller memory files or summarise it',
    ]);
    expect(loads).toBe(1);
  });

  it('too-large counts with the real tokenizer (o200k_base)', async () => {
    const { loadTokenCounter } = await import('../../../../../src/kernel/tokens/index.js');
    const body = 'The quick brown fox jumps over the lazy dog. '.repeat(250);
    const file = mem('fox.md', doc(VALID, body));
    const tokens = await loadTokenCounter();
    const result = await lint(['content/too-large'], { files: [file], tokens });
    const expected = tokens.count(`---\n${file.frontmatter}\n---\n${body}`);
    expect(expected).toBeGreaterThan(2000);
    expect(result.findings[0].message).toBe(`${expected} tokens, over the 2000-token limit; split it into smaller memory files or summarise it`);
  });

  it('too-large counts a file of few characters and many tokens (ꙮ: one character, three bytes, three tokens)', async () => {
    const { loadTokenCounter } = await import('../../../../../src/kernel/tokens/index.js');
    const body = 'ꙮ'.repeat(1000);
    const file = mem('eyes.md', doc(VALID, body));
    const tokens = await loadTokenCounter();
    const expected = tokens.count(`---\n${file.frontmatter}\n---\n${body}`);
    expect(file.body.length).toBeLessThan(2000);
    expect(expected).toBeGreaterThan(3000);
    const result = await lint(['content/too-large'], { files: [file], tokens });
    expect(result.findings.map((f) => f.message)).toEqual([`${expected} tokens, over the 2000-token limit; split it into smaller memory files or summarise it`]);
  });
});
