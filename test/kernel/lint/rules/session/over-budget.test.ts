import { describe, expect, it } from 'vitest';
import type { TokenCounter } from '../../../../../src/kernel/tokens/index.js';
import { VALID, doc, lint, lines, mem } from '../../../../helpers/lint.js';

describe('session rules', () => {
  const full = '## Goal\nShip it\n## Progress\nDone\n## Decisions\nnone recorded\n## Changed Files\n- a.ts\n## Blockers\nnone recorded\n## Next Steps\nRelease\n';

  it('over-budget: sessions over 650 tokens', async () => {
    const counter: TokenCounter = { encoding: 'o200k_base', count: (text) => text.split(/\s+/).filter(Boolean).length };
    const files = [mem('sessions/s.md', doc({ ...VALID, kind: 'session' }, full + 'word '.repeat(700))), mem('sessions/t.md', doc({ ...VALID, kind: 'session' }, full))];
    expect(lines(await lint(['session/over-budget'], { files, tokens: counter }))).toEqual([
      'sessions/s.md:1:1 session/over-budget session summary is 740 tokens, over its 650-token budget; keep the decisions and next steps, summarise the rest',
    ]);
  });
});
