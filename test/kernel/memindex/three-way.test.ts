// memindex/three-way.ts: MEMORY.md merged from the common ancestor and both sides
// (test/kernel/hooks/merge-driver.test.ts runs it through real git merges).
import { describe, expect, it } from 'vitest';
import { mergeIndexTexts } from '../../../src/kernel/memindex/three-way.js';

describe('mergeIndexTexts', () => {
  const block = (...lines: string[]) => ['<!-- memctx:begin -->', '## Project', '', ...lines, '<!-- memctx:end -->'].join('\n');
  const a = '- [A](a.md) — a';
  const b = '- [B](b.md) — b';
  const c = '- [C](c.md) — c';
  it('drops an entry one side removed, takes an entry one side changed, adds both sides\' new ones', () => {
    const o = `# M\n\n${block(a, b)}\n`;
    const ours = `# M\n\n${block(a, c)}\n`; // removed b, added c
    const theirs = `# M\n\n${block('- [A](a.md) — changed', b, '- [D](d.md) — d')}\n`;
    expect(mergeIndexTexts(o, ours, theirs)).toEqual({ text: `# M\n\n${block('- [A](a.md) — changed', c, '- [D](d.md) — d')}\n`, conflicts: 0 });
  });
});
