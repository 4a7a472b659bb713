/** The shape every transcript reader returns, whatever the file's format. */

export const TRANSCRIPT_FORMATS = ['claude', 'codex', 'gemini', 'openai', 'text'] as const;
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];

export type ItemKind = 'message' | 'tool_call' | 'tool_result';
export type Role = 'user' | 'assistant' | 'system' | 'tool' | 'unknown';

export interface TranscriptItem {
  role: Role;
  kind: ItemKind;
  /** What the item puts in the context: message text, the call's input as JSON, the tool's output. */
  text: string;
  /** 1-based line in the source where the item starts. */
  line: number;
  /** Tool calls (and their results, when the call was seen): the tool's name. */
  toolName?: string;
  /** Tool calls: the parsed input (an object for most tools, a string for patch-style tools). */
  toolInput?: unknown;
  /** Links a tool call with its result. */
  toolId?: string;
  /** A tool result the tool flagged as an error. */
  isError?: boolean;
  /** Claude Code subagent (sidechain) content: not part of the main conversation's context. */
  sidechain?: boolean;
  /** The model response this item belongs to (Claude Code `message.id`). */
  responseId?: string;
  /** The agent's own summary of the conversation so far (Claude Code `isCompactSummary`, Codex `compacted`). */
  compactSummary?: boolean;
  /** Text the agent injected rather than the user typed (Claude Code `isMeta`: expanded commands, reminders). */
  meta?: boolean;
}

/** An API error the agent recorded (Claude Code `isApiErrorMessage`); `index` is the number of items before it. */
export interface ApiError {
  line: number;
  text: string;
  index: number;
}

/** Usage the agent recorded: the model's own figure of the tokens in its context. */
export interface RecordedUsage {
  /** Tokens in the context window. */
  used: number;
  /** The window the agent recorded (Codex `model_context_window`). */
  window?: number;
  model?: string;
  /** 1-based source line of the record, when the whole file was read. */
  line?: number;
  source: 'claude-usage' | 'claude-compact-boundary' | 'codex-token-count' | 'gemini-tokens';
}

export interface TranscriptNote {
  line?: number;
  message: string;
}

export interface Transcript {
  format: TranscriptFormat;
  items: TranscriptItem[];
  /** Index of the first item in the current context (after the last compaction). */
  contextStart: number;
  /** The usage figure design §6 selects, or null when the transcript records none. */
  usage: RecordedUsage | null;
  /** The model the transcript names last, if any. */
  model?: string;
  /** Things worth telling the user: skipped lines, a truncated last line, ignored usage records. */
  notes: TranscriptNote[];
  /** The session's working directory, when the transcript records one. */
  cwd?: string;
  /** API errors the agent recorded (Claude Code). */
  apiErrors?: ApiError[];
  /** The session's id, when the transcript names one. */
  sessionId?: string;
  /** ISO timestamps of the first and last timed lines. */
  startedAt?: string;
  endedAt?: string;
}

export function isTranscriptFormat(value: string): value is TranscriptFormat {
  return (TRANSCRIPT_FORMATS as readonly string[]).includes(value);
}

/** A backward usage scan so far (lines are fed last first). */
export interface UsageScanState {
  usage: RecordedUsage | null;
  model?: string;
  /** Subagent (sidechain) usage records passed over. */
  sidechain: number;
  /** Usage records ignored, and why. */
  bad: string[];
  /** The latest subagent usage passed over, and whether any main-conversation line was seen. */
  sidechainUsage?: RecordedUsage;
  mainSeen?: boolean;
}

/** One format's part in the backward usage scan (`usage.ts` dispatches to it). */
export interface UsageLineStep {
  /** A JSON line matters only when it contains one of these (the others are not parsed). */
  relevant: string[];
  /** Take one parsed line; true once the usage is settled. */
  line(o: Record<string, unknown>, state: UsageScanState): boolean;
  /** Once settled: a last look at the chunk of lines the usage was found in. */
  settled?(lines: string[], state: UsageScanState): void;
  /** The start of the file was reached without settling. */
  atStart?(state: UsageScanState): void;
}
