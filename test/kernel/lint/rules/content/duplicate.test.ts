import { describe, expect, it } from 'vitest';
import { VALID, doc, lint, mem } from '../../../../helpers/lint.js';

describe('content rules', () => {
  it('duplicate: near-duplicates at 0.85 name both files; different texts do not match', async () => {
    const text = 'The deploy pipeline runs lint, unit tests and the integration suite before the canary stage. Rollbacks use the previous image tag and never rebuild from source. Secrets come from the vault agent sidecar at start-up.';
    const files = [
      mem('a.md', doc(VALID, text)),
      mem('b.md', doc(VALID, `${text} Also noted.`)),
      mem('c.md', doc(VALID, 'Completely different text about the caching layer, eviction policy and the warm-up job that fills it on deploy.')),
    ];
    const result = await lint(['content/duplicate'], { files });
    expect(result.findings).toHaveLength(1);
    const f = result.findings[0];
    expect(f.file).toBe('b.md');
    expect(f.message).toMatch(/^near-duplicate of a\.md \(similarity 0\.9\d, threshold 0\.85\); merge b\.md into a\.md or remove one$/);
  });
});
