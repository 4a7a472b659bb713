/** `status` through MCP: input and the report's shape. */
import * as v from 'valibot';
import { LEVELS } from '../capacity/levels.js';
import { text } from './fields.js';

export const StatusInput = v.strictObject({
  transcript: v.optional(
    v.pipe(
      v.string(),
      v.minLength(1, 'is empty'),
      v.description('a transcript file (Claude Code or Codex JSONL, OpenAI JSON, text) of this project; default: the latest Claude Code session of the working directory'),
    ),
  ),
  model: v.optional(text('take the context window from this model id')),
});

export const StatusOutput = v.looseObject({
  file: v.string(),
  format: v.string(),
  level: v.picklist(LEVELS),
  percent: v.number(),
  used: v.number(),
  window: v.number(),
  advice: v.string(),
  notes: v.array(v.string()),
});
