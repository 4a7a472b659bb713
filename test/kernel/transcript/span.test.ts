import { describe, expect, it } from 'vitest';
import { SessionSpan } from '../../../src/kernel/transcript/span.js';
import type { Transcript } from '../../../src/kernel/transcript/types.js';

const applied = (span: SessionSpan) => {
  const t = {} as Transcript;
  span.apply(t);
  return { sessionId: t.sessionId, startedAt: t.startedAt, endedAt: t.endedAt };
};

describe('SessionSpan', () => {
  it('records the first id named and the first and last timestamps, in UTC without milliseconds', () => {
    const span = new SessionSpan();
    span.name('  abc-123 ');
    span.name('other');
    span.see('2026-11-21T15:30:12.345+02:00');
    span.see('2026-11-21T16:00:00Z');
    span.see('2026-11-21T17:05:09.999Z');
    expect(applied(span)).toEqual({ sessionId: 'abc-123', startedAt: '2026-11-21T13:30:12Z', endedAt: '2026-11-21T17:05:09Z' });
  });

  it('skips ids and timestamps that are not strings and blank ids; a timestamp that is not a date does not start the span', () => {
    const span = new SessionSpan();
    span.name(42);
    span.name('   ');
    span.see(1_700_000_000);
    span.see('not a date');
    span.see('2026-01-02');
    expect(applied(span)).toEqual({ sessionId: undefined, startedAt: '2026-01-02T00:00:00Z', endedAt: '2026-01-02T00:00:00Z' });
  });

  it('leaves out an end whose last timestamp is not a date', () => {
    const span = new SessionSpan();
    span.see('2026-01-02T03:04:05Z');
    span.see('garbled');
    expect(applied(span)).toEqual({ sessionId: undefined, startedAt: '2026-01-02T03:04:05Z', endedAt: undefined });
  });
});
