/**
 * Finding the recorded usage from the end of a transcript, so that only the tail of a large file is
 * read: the caller feeds chunks of whole lines, last chunk first, until the scanner is done.
 */
import { boundaryUsage, classifyClaudeLine } from './claude.js';
import { classifyCodexLine } from './codex.js';
import { parseJsonObject } from './jsonl.js';
import type { RecordedUsage, TranscriptNote } from './types.js';

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

const RELEVANT = { claude: ['"usage"', 'compact_boundary'], codex: ['token_count', 'turn_context'] };

/** A backward usage scanner for formats that record usage (Claude Code, Codex), or undefined. */
export function createUsageScanner(format: string): UsageScanner | undefined {
  if (format !== 'claude' && format !== 'codex') return undefined;
  let done = false;
  let usage: RecordedUsage | null = null;
  let model: string | undefined;
  let sawLast = false;
  let sidechain = 0;
  let notJson = 0;
  const notes: TranscriptNote[] = [];
  const bad: string[] = [];
  return {
    feed(lines, atStart) {
      for (let i = lines.length - 1; i >= 0 && !done; i--) {
        const text = lines[i];
        if (!text.trim()) continue;
        const isLast = !sawLast;
        sawLast = true;
        // only a few kinds of line matter here: skip parsing the others (large tool outputs above all)
        if (!isLast && text.trimStart().startsWith('{') && !RELEVANT[format].some((k) => text.includes(k))) continue;
        const o = parseJsonObject(text);
        if (!o) {
          if (isLast && text.trim().startsWith('{')) notes.push({ message: 'the last line is an incomplete JSON line (truncated write?); ignored' });
          else notJson++;
          continue;
        }
        if (format === 'claude') {
          const c = classifyClaudeLine(o);
          if (c.kind === 'usage') {
            usage = c.usage;
            model = c.usage.model;
            done = true;
          } else if (c.kind === 'boundary') {
            if (c.postTokens !== undefined) usage = boundaryUsage(c.postTokens);
            done = true;
          } else if (c.kind === 'sidechain-usage') sidechain++;
          else if (c.kind === 'bad-usage') bad.push(`usage ignored: ${c.reason}`);
        } else {
          const c = classifyCodexLine(o);
          if (c.kind === 'usage') {
            usage = c.usage;
            done = true;
          } else if (c.kind === 'model' && !model) model = c.model;
          else if (c.kind === 'bad-usage') bad.push(`token_count ignored: ${c.reason}`);
        }
      }
      if (format === 'codex' && done && usage && !model) {
        // the model is only needed when no window was recorded; look in this chunk only
        for (const text of lines) {
          const o = parseJsonObject(text);
          const c = o ? classifyCodexLine(o) : undefined;
          if (c?.kind === 'model') model = c.model;
        }
      }
      if (atStart) done = true;
      return done;
    },
    result() {
      const out = [...notes];
      if (notJson) out.push({ message: `${notJson} line${notJson === 1 ? ' is' : 's are'} not JSON and ${notJson === 1 ? 'was' : 'were'} skipped` });
      for (const b of bad.slice(0, 5)) out.push({ message: b });
      if (!usage && sidechain) out.push({ message: `only subagent (sidechain) usage is recorded (${sidechain} record${sidechain === 1 ? '' : 's'}); it does not measure the main context` });
      const found: RecordedUsage | null = usage;
      if (found && model && !found.model) found.model = model;
      return { usage: found, model, notes: out };
    },
  };
}
