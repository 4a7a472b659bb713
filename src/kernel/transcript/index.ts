/**
 * Transcript readers: each turns a file's text into the same shape (see types.ts). Pure: they take
 * text, never paths; reading files is `sources/transcript-file.ts`'s job.
 */
import { transcriptBody } from './detect.js';
import { claudeFormat } from './formats/claude.js';
import { codexFormat } from './formats/codex.js';
import { geminiFormat } from './formats/gemini.js';
import { openAiFormat } from './formats/openai.js';
import { textFormat } from './formats/text.js';
import type { TranscriptFormatModule } from './formats/format.js';
import type { Transcript, TranscriptFormat } from './types.js';
import type { SessionFacts } from './extract.js';

export { readClaudeTranscript } from './formats/claude.js';
export { claudeUsedTokens } from './usage-fields.js';
export { readCodexTranscript } from './formats/codex.js';
export { readOpenAiTranscript } from './formats/openai.js';
export { readGeminiTranscript } from './formats/gemini.js';
export { readTextTranscript } from './formats/text.js';
export { detectFormat } from './detect.js';
export { FORMATS, isGeminiSession } from './registry.js';
export type { TranscriptFormatModule } from './formats/format.js';
export { classifyClaudeLine, classifyCodexLine, createUsageScanner, scanUsage } from './usage.js';
export type { UsageScanner, UsageScanResult } from './usage.js';
export { changedFiles, patchPaths } from './files.js';
export type { ChangedFile } from './files.js';
export { TRANSCRIPT_FORMATS, isTranscriptFormat } from './types.js';
export type { Transcript, TranscriptItem, TranscriptFormat, TranscriptNote, RecordedUsage, ItemKind, Role } from './types.js';

export { condense, failingTests, summarySections, sectionItems, type SessionFacts, type FactFile } from './extract.js';
export { addDistinct, statementKey } from './statement.js';

/** Each format's module: how it is told (registry.ts), read and extracted. */
const MODULES: Record<TranscriptFormat, TranscriptFormatModule> = { gemini: geminiFormat, codex: codexFormat, claude: claudeFormat, openai: openAiFormat, text: textFormat };

/** The format module of a name. */
export function transcriptFormat(name: TranscriptFormat): TranscriptFormatModule {
  return MODULES[name] ?? textFormat;
}

/** What a session did (goal, progress, decisions, blockers, next steps, changed files), by its format's extractor. */
export function extractFacts(t: Transcript, options: { cwd?: string } = {}): SessionFacts {
  return transcriptFormat(t.format).extract(t, options);
}

export interface ReadTranscriptOptions {
  /** Force a reader instead of detecting the format from the content. */
  format?: TranscriptFormat;
}

/** Read a transcript's text (any supported format; a leading BOM is ignored). */
export function readTranscript(text: string, options: ReadTranscriptOptions = {}): Transcript {
  const { body, format } = transcriptBody(text, options.format);
  return transcriptFormat(format).read(body);
}

/** The items in the current context: after the last compaction, subagent (sidechain) items left out. */
export function contextItems(transcript: Transcript) {
  return transcript.items.slice(transcript.contextStart).filter((i) => !i.sidechain);
}
