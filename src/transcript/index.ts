/**
 * Transcript readers: each turns a file's text into the same shape (see types.ts). Pure: they take
 * text, never paths; reading files is `store/read-tail.ts`'s job.
 */
import { readClaudeTranscript } from './claude.js';
import { readCodexTranscript } from './codex.js';
import { detectFormat } from './detect.js';
import { readOpenAiTranscript } from './openai.js';
import { readTextTranscript } from './text.js';
import type { Transcript, TranscriptFormat } from './types.js';

export { readClaudeTranscript, claudeUsedTokens, classifyClaudeLine } from './claude.js';
export { readCodexTranscript, classifyCodexLine } from './codex.js';
export { readOpenAiTranscript } from './openai.js';
export { readTextTranscript } from './text.js';
export { detectFormat } from './detect.js';
export { createUsageScanner, scanUsage } from './usage.js';
export type { UsageScanner, UsageScanResult } from './usage.js';
export { changedFiles, patchPaths } from './files.js';
export type { ChangedFile } from './files.js';
export { TRANSCRIPT_FORMATS, isTranscriptFormat } from './types.js';
export type { Transcript, TranscriptItem, TranscriptFormat, TranscriptNote, RecordedUsage, ItemKind, Role } from './types.js';

export interface ReadTranscriptOptions {
  /** Force a reader instead of detecting the format from the content. */
  format?: TranscriptFormat;
}

const READERS: Record<TranscriptFormat, (text: string) => Transcript> = {
  claude: readClaudeTranscript,
  codex: readCodexTranscript,
  openai: readOpenAiTranscript,
  text: readTextTranscript,
};

/** Read a transcript's text (any supported format; a leading BOM is ignored). */
export function readTranscript(text: string, options: ReadTranscriptOptions = {}): Transcript {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const format = options.format ?? detectFormat(body, { complete: true });
  return READERS[format](body);
}

/** The items in the current context: after the last compaction, subagent (sidechain) items left out. */
export function contextItems(transcript: Transcript) {
  return transcript.items.slice(transcript.contextStart).filter((i) => !i.sidechain);
}
