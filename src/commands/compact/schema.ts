/** `compact`'s input: the one check of its options (as the other operations' schemas are). */
import * as v from 'valibot';
import { DEFAULT_ENCODING, ENCODINGS, type EncodingName } from '../../kernel/tokens/encodings.js';
import { TRANSCRIPT_FORMATS, type TranscriptFormat } from '../../kernel/transcript/types.js';
import { choice, parseInput, path, whole, type Label } from '../../kernel/schema.js';

const CompactInput = v.strictObject({
  file: path('transcript (Claude Code or Codex JSONL, OpenAI messages JSON, plain text); - for stdin'),
  out: v.optional(path('write the Markdown to this file instead of stdout')),
  format: v.optional(choice(TRANSCRIPT_FORMATS, 'read the file as this format (default: detected)')),
  keep_last: v.optional(whole('exchanges at the end kept verbatim (default 10)', 0)),
  encoding: v.optional(choice(ENCODINGS, `tokenizer for the counts (default ${DEFAULT_ENCODING})`)),
});

export interface CompactRequest {
  file: string;
  out?: string;
  format?: TranscriptFormat;
  keepLast: number;
  encoding: EncodingName;
}

/** Check `compact`'s input (a door's raw values), with its defaults; a usage error names the field as `label` spells it. */
export function resolveCompact(input: unknown, label: Label): CompactRequest {
  const parsed = parseInput(CompactInput, input, label);
  return { file: parsed.file, out: parsed.out, format: parsed.format, keepLast: parsed.keep_last ?? 10, encoding: parsed.encoding ?? DEFAULT_ENCODING };
}
