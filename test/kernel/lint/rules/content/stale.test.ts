import { describe, expect, it } from 'vitest';
import { VALID, doc, lint, lines, mem } from '../../../../helpers/lint.js';

describe('content rules', () => {
  it('stale: expired, old low-importance decisions, old resolved issues; pinned exempt', async () => {
    const files = [
      mem('expired.md', doc({ ...VALID, expires: '2026-11-01' })),
      mem('decision.md', doc({ ...VALID, kind: 'decision', importance: 5, updated: '2026-08-01' })),
      mem('important.md', doc({ ...VALID, kind: 'decision', importance: 6, updated: '2026-01-01' })),
      mem('recent.md', doc({ ...VALID, kind: 'decision', importance: 3, updated: '2026-09-01' })),
      mem('resolved.md', doc({ ...VALID, kind: 'issue', status: 'resolved', updated: '2026-10-15' })),
      mem('open.md', doc({ ...VALID, kind: 'issue', status: 'open', updated: '2025-01-01' })),
      mem('pinned.md', doc({ ...VALID, expires: '2026-01-01', pinned: 'true' })),
    ];
    expect(lines(await lint(['content/stale'], { files }))).toEqual([
      'decision.md:5:1 content/stale stale: decision of importance 5 (at most 5) last updated 2026-08-01, 112 days ago (over 90); `memctx gc --apply` moves it to archive/',
      'expired.md:6:1 content/stale stale: expired on 2026-11-01; `memctx gc --apply` moves it to archive/',
      'resolved.md:5:1 content/stale stale: resolved issue last updated 2026-10-15, 37 days ago (over 30); `memctx gc --apply` moves it to archive/',
    ]);
  });
});
