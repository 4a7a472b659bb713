/** `sessions`'s options: one definition for the CLI flags and the library (the field and the date are checked by the use case). */
import * as v from 'valibot';
import { text, whole } from '../../kernel/schema.js';

export const SessionsOptions = v.strictObject({
  field: v.optional(text('print this field of each session (goal, progress, decisions, changed-files, blockers, next-steps)')),
  since: v.optional(text('only sessions that ended since then: 30m, 12h, 14d, 2w or a date')),
  limit: v.optional(whole('at most this many sessions (the newest)', 1)),
});
