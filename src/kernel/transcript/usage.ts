/**
 * Finding the recorded usage from the end of a transcript, so that only the tail of a large file is
 * read: the caller feeds chunks of whole lines, last chunk first, until the scanner is done.
 */
import { claudeUsageStep, sidechainNote } from './formats/claude.js';
import { codexUsageStep } from './formats/codex.js';
import { parseJsonObject } from './jsonl.js';
import type { RecordedUsage, TranscriptNote, UsageLineStep, UsageScanState } from './types.js';

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
