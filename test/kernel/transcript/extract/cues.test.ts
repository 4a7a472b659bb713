import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CUES, Cue } from '../../../../src/kernel/transcript/extract.js';

/** Words of the cue patterns and what surrounds them, in any case, so that random text often matches. */
const FRAGMENTS = fc.oneof(
  fc.constantFrom(
    'decided', 'decide to', 'chose', 'choose to', 'went with', 'go with', 'opted', 'instead of', 'rather than', 'trade-off', 'tradeoffs',
    'added', 'use', 'using', 'switched', 'replacing', 'moved', 'keep', 'kept', 'inlined', 'removed', 'falls back', 'wrapped', 'guarded', 'scoped',
    'to protect', 'to avoid', 'to make sure', 'so that', 'so we', 'so the', 'which avoids', 'which keeps',
    'because', 'since', 'done', 'all', 'tests', 'are', 'is', 'now', 'have been', 'complete', 'completed', 'finished', 'addressed', 'passing', 'pass',
    'ready to', 'be', 'commit', 'ship', 'no further', 'no more', 'action', 'changes', 'ready to be', 'merged', 'ready for', 'review', 'still', 'yet',
    'needs', 'to be', 'remaining', 'steps', 'left to do', 'follow-up', 'followup', 'next step', 'you', 'can', 'might', 'then', 'run',
    ' ', ' ', ' ', '. ', '! ', '\n', '.', ',', 'x', 'the cache', 'İ', 'ſ', 'K', 'ı',
  ),
  fc.string({ maxLength: 4 }),
);
/** Sentences shaped as the patterns want them ("… All tests are passing", "The fix is now complete"). */
const SHAPED = fc
  .tuple(
    fc.constantFrom('', 'Ok. ', 'Yes! ', 'x\n', 'x ', 'x.', 'x.\t'),
    fc.constantFrom('all ', 'all tests ', 'all of the checks ', 'the work ', 'it ', ''),
    fc.constantFrom('are ', 'is ', 'is now ', 'have been ', ''),
    fc.constantFrom('done', 'complete', 'completed', 'finished', 'addressed', 'resolved', 'implemented', 'passing', 'pass', 'ready to be merged', 'no more work'),
    fc.constantFrom('', '.', ' now', 'd', ':', 'ne'),
  )
  .map((parts) => parts.join(''));
const TEXT = fc.oneof(
  fc.tuple(fc.array(FRAGMENTS, { maxLength: 20 }), fc.array(fc.boolean(), { maxLength: 20 })).map(([parts, upper]) => parts.map((p, i) => (upper[i] ? p.toUpperCase() : p)).join(' ')),
  fc.tuple(SHAPED, fc.boolean()).map(([text, upper]) => (upper ? text.toUpperCase() : text)),
);

const SAMPLES = ['Done.', 'x.done', 'x. done', 'x.\ndone', 'Undone', 'All tests pass', 'all good', 'It is now complete', 'DONE: x', 'we decided to', 'decidedly', 'use a lock to protect it', 'because we prefer', 'ready to be merged', 'You can run it', 'ſo that', 'İs done'];

/** The cue as defined, screening every text by its words (not only the first ones). */
const screening = Object.entries(CUES).map(([name, cue]) => [name, new Cue(cue.pattern, cue.words, cue.quick, Number.POSITIVE_INFINITY)] as const);

describe('cue patterns with their words', () => {
  it('runs the pattern alone once it has screened enough texts (the answer is the same)', () => {
    const cue = new Cue(/\bdone\b/i, ['done'], undefined, 2);
    expect(['x', 'done', 'DONE', 'undone', 'x done'].map((text) => cue.test(text))).toEqual([false, true, true, false, true]);
  });

  it.each(screening)('%s answers as its pattern does on samples', (_name, cue) => {
    for (const text of SAMPLES) expect([text, cue.test(text)]).toEqual([text, cue.pattern.test(text)]);
  });

  it.each(screening)('%s answers as its pattern does on random text', (_name, cue) => {
    let matched = 0;
    fc.assert(
      fc.property(TEXT, (text) => {
        const expected = cue.pattern.test(text);
        if (expected) matched++;
        expect(cue.test(text)).toBe(expected);
      }),
      { numRuns: 6000 },
    );
    expect(matched).toBeGreaterThan(5);
  });
});
