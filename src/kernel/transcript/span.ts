/** A session's id and the times of its first and last timed lines, as its transcript states them. */
import { parseDate } from '../dates.js';
import { isoTimestamp } from '../store/schema.js';
import type { Transcript } from './types.js';

const iso = (value: string | undefined): string | undefined => {
  const ms = parseDate(value);
  return ms === undefined ? undefined : isoTimestamp(new Date(ms));
};

export class SessionSpan {
  id?: string;
  private first?: string;
  private last?: string;

  /** A line's timestamp (lines are in time order: only the first valid one and the last one are read). */
  see(timestamp: unknown): void {
    if (typeof timestamp !== 'string') return;
    if (this.first === undefined) this.first = iso(timestamp);
    this.last = timestamp;
  }

  /** The session's id: the first one named. */
  name(id: unknown): void {
    if (this.id === undefined && typeof id === 'string' && id.trim()) this.id = id.trim();
  }

  /** Record what was seen on the transcript. */
  apply(t: Transcript): void {
    if (this.id) t.sessionId = this.id;
    if (this.first) t.startedAt = this.first;
    const last = iso(this.last);
    if (last) t.endedAt = last;
  }
}
