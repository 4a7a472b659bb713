import { describe, expect, it } from 'vitest';
import { VALID, doc, lint, lines, mem } from '../../../../helpers/lint.js';

describe('session rules', () => {
  const full = '## Goal\nShip it\n## Progress\nDone\n## Decisions\nnone recorded\n## Changed Files\n- a.ts\n## Blockers\nnone recorded\n## Next Steps\nRelease\n';

  it('missing-field: each of the six fields', async () => {
    const files = [
      mem('sessions/2026-11-20T100000-ok.md', doc({ ...VALID, kind: 'session' }, full)),
      mem('sessions/2026-11-21T100000-partial.md', doc({ ...VALID, kind: 'session' }, '## Goal\nx\n**Progress:** y\nNext steps: z\n')),
      mem('decision.md', doc({ ...VALID, kind: 'decision' }, 'no fields')),
      mem('sessions/2026-11-21T110000-notes.md', doc({ ...VALID, kind: 'session', template: 'notes' }, '## Current State\nx\n')),
    ];
    expect(lines(await lint(['session/missing-field'], { files }))).toEqual([
      'sessions/2026-11-21T100000-partial.md:8:1 session/missing-field session summary has no "Decisions" field; write it (or "none recorded") so the omission is visible',
      'sessions/2026-11-21T100000-partial.md:8:1 session/missing-field session summary has no "Changed Files" field; write it (or "none recorded") so the omission is visible',
      'sessions/2026-11-21T100000-partial.md:8:1 session/missing-field session summary has no "Blockers" field; write it (or "none recorded") so the omission is visible',
    ]);
  });
});
