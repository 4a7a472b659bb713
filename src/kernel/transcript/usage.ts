/**
 * The usage an agent records (design §6): which Claude Code and Codex lines hold it (their readers take
 * it from here too), and finding it from the end of a transcript, so that only the tail of a large file
 * is read: the caller feeds chunks of whole lines, last chunk first, until the scanner is done.
 */
import { parseJsonObject } from './jsonl.js';
import { claudeUsedTokens, tokenField } from './usage-fields.js';
import { isRecord } from '../values.js';
import type { RecordedUsage, TranscriptNote, UsageLineStep, UsageScanState } from './types.js';

// Claude Code (design §6): the latest main-context assistant usage after the last compact boundary.

export type ClaudeLine =
  | { kind: 'usage'; usage: RecordedUsage; id?: string }
  | { kind: 'boundary'; postTokens?: number }
  | { kind: 'bad-usage'; reason: string }
  | { kind: 'sidechain-usage'; usage?: RecordedUsage }
  | { kind: 'other' };

/** What one Claude Code line means for the usage figure (design §6). */
export function classifyClaudeLine(o: Record<string, unknown>, line?: number): ClaudeLine {
  // A subagent's own compaction says nothing about the main context.
  if (o.type === 'system' && o.subtype === 'compact_boundary' && o.isSidechain !== true) {
    const meta = o.compactMetadata as Record<string, unknown> | undefined;
    const post = tokenField(meta?.postTokens);
    return { kind: 'boundary', postTokens: post.ok ? post.value : undefined };
  }
  if (o.type !== 'assistant') return { kind: 'other' };
  const message = o.message as Record<string, unknown> | undefined;
  if (!message || typeof message !== 'object' || message.usage === undefined) return { kind: 'other' };
  if (o.isApiErrorMessage === true || message.model === '<synthetic>') return { kind: 'other' };
  const used = claudeUsedTokens(message.usage);
  if (!used.ok) return o.isSidechain === true ? { kind: 'sidechain-usage' } : { kind: 'bad-usage', reason: used.reason };
  const usage: RecordedUsage = { used: used.used, source: 'claude-usage' };
  if (typeof message.model === 'string') usage.model = message.model;
  if (line !== undefined) usage.line = line;
  if (o.isSidechain === true) return { kind: 'sidechain-usage', usage };
  return { kind: 'usage', usage, id: typeof message.id === 'string' ? message.id : undefined };
}

export function boundaryUsage(postTokens: number, line?: number): RecordedUsage {
  const usage: RecordedUsage = { used: postTokens, source: 'claude-compact-boundary' };
  if (line !== undefined) usage.line = line;
  return usage;
}

/** Why a usage record was ignored. */
export function badUsageMessage(reason: string): string {
  return `usage ignored: ${reason}`;
}

/** The note when only subagent usage is recorded. */
export function sidechainNote(count: number): string {
  return `only subagent (sidechain) usage is recorded (${count} record${count === 1 ? '' : 's'}); it does not measure the main context`;
}

/** The backward usage scan's step for Claude Code: the last main-context usage, else the last compaction. */
const claudeUsageStep: UsageLineStep = {
  relevant: ['"usage"', 'compact_boundary', '"isSidechain":false'],
  line(o, state) {
    if (o.isSidechain === false) state.mainSeen = true;
    const c = classifyClaudeLine(o);
    if (c.kind === 'usage') {
      state.usage = c.usage;
      state.model = c.usage.model;
      return true;
    }
    if (c.kind === 'boundary') {
      if (c.postTokens !== undefined) state.usage = boundaryUsage(c.postTokens);
      return true;
    }
    if (c.kind === 'sidechain-usage') {
      state.sidechain++;
      if (c.usage && !state.sidechainUsage) state.sidechainUsage = c.usage;
    } else if (c.kind === 'bad-usage') state.bad.push(badUsageMessage(c.reason));
    return false;
  },
  atStart(state) {
    // A subagent's transcript on its own: every line is a sidechain line, so its own usage counts.
    if (!state.usage && state.sidechainUsage && !state.mainSeen) {
      state.usage = state.sidechainUsage;
      state.model = state.sidechainUsage.model;
    }
  },
};

// Codex (design §6): the latest token_count event.

export type CodexLine =
  | { kind: 'usage'; usage: RecordedUsage }
  | { kind: 'bad-usage'; reason: string }
  | { kind: 'model'; model: string }
  | { kind: 'other' };

/** What one Codex line means for the usage figure: the latest token_count's last_token_usage.total_tokens. */
export function classifyCodexLine(o: Record<string, unknown>, line?: number): CodexLine {
  const payload = o.payload;
  if (!isRecord(payload)) return { kind: 'other' };
  if (o.type === 'turn_context' && typeof payload.model === 'string') return { kind: 'model', model: payload.model };
  if (o.type !== 'event_msg' || payload.type !== 'token_count') return { kind: 'other' };
  const info = payload.info;
  if (info === null || info === undefined) return { kind: 'other' };
  if (!isRecord(info)) return { kind: 'bad-usage', reason: 'info is not an object' };
  const last = info.last_token_usage;
  if (!isRecord(last)) return { kind: 'bad-usage', reason: 'last_token_usage is missing' };
  const total = tokenField(last.total_tokens);
  if (!total.ok) return { kind: 'bad-usage', reason: `last_token_usage.total_tokens is ${total.reason}` };
  const usage: RecordedUsage = { used: total.value, source: 'codex-token-count' };
  const window = tokenField(info.model_context_window);
  if (window.ok && window.value > 0) usage.window = window.value;
  if (line !== undefined) usage.line = line;
  return { kind: 'usage', usage };
}

/** Why a token_count record was ignored. */
export function badTokenCountMessage(reason: string): string {
  return `token_count ignored: ${reason}`;
}

/** The backward usage scan's step for Codex: the last token_count, and the model named nearest it. */
const codexUsageStep: UsageLineStep = {
  relevant: ['token_count', 'turn_context'],
  line(o, state) {
    const c = classifyCodexLine(o);
    if (c.kind === 'usage') {
      state.usage = c.usage;
      return true;
    }
    if (c.kind === 'model' && !state.model) state.model = c.model;
    else if (c.kind === 'bad-usage') state.bad.push(badTokenCountMessage(c.reason));
    return false;
  },
  settled(lines, state) {
    // the model is only needed when no window was recorded; look in this chunk only
    if (!state.usage || state.model) return;
    for (const text of lines) {
      const o = parseJsonObject(text);
      const c = o ? classifyCodexLine(o) : undefined;
      if (c?.kind === 'model') state.model = c.model;
    }
  },
};


export interface UsageScanResult {
  /** The usage design §6 selects, or null when the transcript records none (count the text instead). */
  usage: RecordedUsage | null;
  model?: string;
  notes: TranscriptNote[];
}

export interface UsageScanner {
  /**
   * Feed the lines just before those fed so far (in file order); `atStart` when they begin the file.
   * Returns true once the result is known.
   */
  feed(lines: string[], atStart: boolean): boolean;
  result(): UsageScanResult;
}

const STEPS: Record<string, UsageLineStep> = { claude: claudeUsageStep, codex: codexUsageStep };

/** A backward usage scanner for formats that record usage (Claude Code, Codex), or undefined. */
export function createUsageScanner(format: string): UsageScanner | undefined {
  const step = STEPS[format];
  if (!step) return undefined;
  let done = false;
  let sawLast = false;
  let notJson = 0;
  const state: UsageScanState = { usage: null, sidechain: 0, bad: [] };
  const notes: TranscriptNote[] = [];
  return {
    feed(lines, atStart) {
      for (let i = lines.length - 1; i >= 0 && !done; i--) {
        const text = lines[i];
        if (!text.trim()) continue;
        const isLast = !sawLast;
        sawLast = true;
        // only a few kinds of line matter here: skip parsing the others (large tool outputs above all)
        if (!isLast && text.trimStart().startsWith('{') && !step.relevant.some((k) => text.includes(k))) continue;
        const o = parseJsonObject(text);
        if (!o) {
          if (isLast && text.trim().startsWith('{')) notes.push({ message: 'the last line is an incomplete JSON line (truncated write?); ignored' });
          else notJson++;
          continue;
        }
        if (step.line(o, state)) done = true;
      }
      if (done) step.settled?.(lines, state);
      else if (atStart) step.atStart?.(state);
      if (atStart) done = true;
      return done;
    },
    result() {
      const out = [...notes];
      if (notJson) out.push({ message: `${notJson} line${notJson === 1 ? ' is' : 's are'} not JSON and ${notJson === 1 ? 'was' : 'were'} skipped` });
      for (const b of state.bad.slice(0, 5)) out.push({ message: b });
      if (!state.usage && state.sidechain) out.push({ message: sidechainNote(state.sidechain) });
      const found = state.usage;
      if (found && state.model && !found.model) found.model = state.model;
      return { usage: found, model: state.model, notes: out };
    },
  };
}

/**
 * The recorded usage from chunks of lines read backwards (`TranscriptFile.linesBackward()`), reading
 * no more of them than needed; undefined when the format records no usage.
 */
export function scanUsage(format: string, chunks: Iterable<{ lines: string[]; atStart: boolean }>): UsageScanResult | undefined {
  const scanner = createUsageScanner(format);
  if (!scanner) return undefined;
  for (const chunk of chunks) if (scanner.feed(chunk.lines, chunk.atStart)) break;
  return scanner.result();
}
