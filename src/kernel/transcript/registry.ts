/**
 * The transcript formats, one file each under `formats/`, in the order a JSON line is tested against
 * them (Gemini before Codex before Claude Code before OpenAI; plain text is the fallback). Detecting,
 * reading and extracting all go through here.
 */
import { claudeFormat } from './formats/claude.js';
import { codexFormat } from './formats/codex.js';
import { geminiFormat } from './formats/gemini.js';
import { openAiFormat } from './formats/openai.js';
import { textFormat } from './formats/text.js';
import type { TranscriptFormatModule } from './formats/format.js';
import type { TranscriptFormat } from './types.js';

export type { TranscriptFormatModule } from './formats/format.js';

export const FORMATS: readonly TranscriptFormatModule[] = [geminiFormat, codexFormat, claudeFormat, openAiFormat, textFormat];

const BY_NAME = new Map<TranscriptFormat, TranscriptFormatModule>(FORMATS.map((f) => [f.name, f]));

/** The format module of a name. */
export function transcriptFormat(name: TranscriptFormat): TranscriptFormatModule {
  return BY_NAME.get(name) ?? textFormat;
}

/** The first format that claims one parsed JSON record, if any. */
export function recordFormat(record: Record<string, unknown>): TranscriptFormat | undefined {
  return FORMATS.find((f) => f.detect(record))?.name;
}
