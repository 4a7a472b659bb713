/**
 * Transcript readers: each turns a file's text into the same shape (see types.ts). Pure: they take
 * text, never paths; reading files is `sources/transcript-file.ts`'s job.
 */
import { detectFormat } from './detect.js';
import { transcriptFormat } from './registry.js';
import type { Transcript, TranscriptFormat } from './types.js';
import type { SessionFacts } from './extract.js';

export { readClaudeTranscript, classifyClaudeLine } from './formats/claude.js';
export { claudeUsedTokens } from './usage-fields.js';
export { readCodexTranscript, classifyCodexLine } from './formats/codex.js';
export { readOpenAiTranscript } from './formats/openai.js';
export { readGeminiTranscript } from './formats/gemini.js';
export { readTextTranscript } from './formats/text.js';
export { detectFormat } from './detect.js';
export { FORMATS, transcriptFormat, type TranscriptFormatModule } from './registry.js';
export { createUsageScanner, scanUsage } from './usage.js';
export type { UsageScanner, UsageScanResult } from './usage.js';
export { changedFiles, patchPaths } from './files.js';
export type { ChangedFile } from './files.js';
export { TRANSCRIPT_FORMATS, isTranscriptFormat } from './types.js';
export type { Transcript, TranscriptItem, TranscriptFormat, TranscriptNote, RecordedUsage, ItemKind, Role } from './types.js';

export { condense, failingTests, summarySections, sectionItems, type SessionFacts, type FactFile } from './extract.js';
export { addDistinct, statementKey } from './statement.js';

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
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const format = options.format ?? detectFormat(body, { complete: true });
  return transcriptFormat(format).read(body);
}

/** The items in the current context: after the last compaction, subagent (sidechain) items left out. */
export function contextItems(transcript: Transcript) {
  return transcript.items.slice(transcript.contextStart).filter((i) => !i.sidechain);
}
