/** `flush` through MCP: the summary's fields in, the file written (or, with dry_run, not) out. */
import * as v from 'valibot';
import { flag, text, texts } from './fields.js';

export const FlushInput = v.strictObject({
  goal: v.optional(text('what this session set out to do')),
  progress: v.optional(texts('what was done')),
  decisions: v.optional(texts('decisions made, each with its reason')),
  changed_files: v.optional(texts('files changed (repository paths)')),
  blockers: v.optional(texts('what is stuck or unresolved')),
  next_steps: v.optional(texts('what to do next')),
  session_id: v.optional(text("this session's id, when the request to save the summary gave one (one file per session)")),
  dry_run: v.optional(flag('return the file without writing it')),
});

export const FlushOutput = v.object({
  path: v.string(),
  written: v.boolean(),
  replaced: v.boolean(),
  text: v.string(),
  warnings: v.array(v.string()),
  notes: v.array(v.string()),
});
