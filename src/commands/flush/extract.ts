/**
 * What a transcript gives a flush: marked lines (`DECISION:`, `BLOCKER:`, `TODO:`, `Next steps:`,
 * and `GOAL:`, `DONE:`/`PROGRESS:`) in the conversation's messages, the first user request as the
 * goal when nothing else gives one. (The files tool calls changed come from the transcript
 * module's `changedFiles`.)
 */
import type { Transcript, TranscriptItem } from '../../kernel/transcript/types.js';
import { addDistinct } from '../../kernel/transcript/statement.js';
import type { FactFile } from '../../kernel/transcript/extract.js';
import type { TranscriptFormatModule } from '../../kernel/transcript/formats/format.js';
import { appendUnique } from '../../kernel/summary/fields.js';
import { fencedLines } from '../../kernel/markdown/links.js';

/** The part of a transcript item extraction reads. */
export type ExtractItem = Pick<TranscriptItem, 'role' | 'kind' | 'text' | 'sidechain' | 'meta' | 'compactSummary'>;

export interface Extracted {
  goal: string[];
  progress: string[];
  decisions: string[];
  blockers: string[];
  nextSteps: string[];
  /** The first line of the first user request: the goal when nothing else gives one. */
  request?: string;
  /** The requests the session's work answered (the goal when nothing else gives one). */
  requests?: string[];
}

type Marker = 'goal' | 'progress' | 'decisions' | 'blockers' | 'todo' | 'next';

const MARKERS: [RegExp, Marker][] = [
  [/^decisions?$/i, 'decisions'],
  [/^blockers?$/i, 'blockers'],
  [/^todo$/i, 'todo'],
  [/^next[ -]steps?$/i, 'next'],
  [/^goal$/i, 'goal'],
  [/^(done|progress)$/i, 'progress'],
];

// Optional bullet or quote, optional bold/italic, the marker word, a colon (inside or outside the emphasis).
const MARKED = /^\s*(?:[-*+]\s+|\d+[.)]\s+|>\s*)?(?:\*\*|__|\*|_)?([A-Za-z][A-Za-z -]{1,12}?)(?:\*\*|__|\*|_)?\s*:(?:\*\*|__|\*|_)?\s*(.*)$/;
// Inside a line ("Continue. DECISION: batch size 10k because …"): the upper-case markers, and "Next steps:".
const MID_MARKED = /(?:^|[\s(.;,])(?:\*\*|__)?(DECISIONS?|BLOCKERS?|TODO|GOAL|DONE|PROGRESS|NEXT[ -]STEPS?|Next steps)(?:\*\*|__)?:(?:\*\*|__)?\s+(\S.*)$/;
const LIST_LINE = /^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?(.+)$/;

function markerOf(word: string): Marker | undefined {
  for (const [pattern, marker] of MARKERS) if (pattern.test(word.trim())) return marker;
  return undefined;
}

interface Found {
  marker: Marker;
  items: string[];
}

/** Marked lines in one message; a marker with nothing after it takes the list that follows. */
export function markedLines(text: string): Found[] {
  const found: Found[] = [];
  const lines = text.split('\n');
  const fenced = fencedLines(lines);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (fenced[i] || !line.includes(':')) continue;
    const m = MARKED.exec(line);
    const marker = m ? markerOf(m[1]) : undefined;
    if (!m || !marker) {
      const mid = MID_MARKED.exec(line);
      const midMarker = mid ? markerOf(mid[1]) : undefined;
      if (mid && midMarker) found.push({ marker: midMarker, items: [mid[2].replace(/(\*\*|__)\s*$/, '').trim()] });
      continue;
    }
    const rest = m[2].replace(/(\*\*|__)\s*$/, '').trim();
    if (rest) {
      found.push({ marker, items: [rest] });
      continue;
    }
    const items: string[] = [];
    let j = i + 1;
    while (j < lines.length && lines[j].trim() === '') j++;
    for (; j < lines.length; j++) {
      const item = LIST_LINE.exec(lines[j]);
      if (!item) break;
      items.push(item[1].trim());
    }
    if (items.length) {
      found.push({ marker, items });
      i = j - 1;
    }
  }
  return found;
}

/** The first line of the first real user request (not a command, a reminder or tool output). */
function firstRequest(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed.startsWith('<') || /^caveat:/i.test(trimmed) || trimmed.startsWith('[Request interrupted')) return undefined;
  const first = trimmed.split('\n').find((l) => l.trim() !== '');
  if (!first) return undefined;
  const line = first.trim();
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}

/** Read a transcript's items for a flush. Sidechain (subagent) content and tool calls and output are skipped. */
export function extractFromTranscript(items: Iterable<ExtractItem>): Extracted {
  const out: Extracted = { goal: [], progress: [], decisions: [], blockers: [], nextSteps: [] };
  const todos: string[] = [];
  let lastNext: string[] = [];
  let request: string | undefined;
  for (const item of items) {
    if (item.sidechain || item.meta || item.compactSummary) continue;
    if (item.kind !== 'message' || (item.role !== 'user' && item.role !== 'assistant')) continue;
    if (request === undefined && item.role === 'user') request = firstRequest(item.text);
    // a new request makes the next steps stated before it stale: only the last turn's stand
    const found = item.text.includes(':') ? markedLines(item.text) : [];
    if (item.role === 'user' && found.length === 0 && firstRequest(item.text) !== undefined) lastNext = [];
    for (const mark of found) {
      if (mark.marker === 'todo') appendUnique(todos, mark.items);
      else if (mark.marker === 'next') lastNext = mark.items;
      else appendUnique(out[mark.marker], mark.items);
    }
  }
  if (request) out.request = request;
  appendUnique(out.nextSteps, todos);
  appendUnique(out.nextSteps, lastNext);
  return out;
}

export interface TranscriptFields extends Extracted {
  files: FactFile[];
  /** Why nothing could be read, when nothing could. */
  unreadable?: string;
}

/**
 * A transcript's fields for a flush: marked lines first, then what the format's extractor reads
 * (the agent's summary, task list, decision statements, unresolved errors, written files).
 * `format` is the transcript's format module (kernel/transcript/reader.ts).
 */
export function transcriptFields(transcript: Transcript, format: Pick<TranscriptFormatModule, 'extract'>, options: { cwd?: string } = {}): TranscriptFields {
  const marked = extractFromTranscript(transcript.items);
  const facts = format.extract(transcript, options);
  const out: TranscriptFields = {
    goal: marked.goal,
    progress: appendUnique([...marked.progress], facts.progress),
    // the same statement marked (`DECISION: …`) and found by its cue words is listed once
    decisions: addDistinct(appendUnique([], marked.decisions), facts.decisions),
    blockers: appendUnique([...marked.blockers], facts.blockers),
    nextSteps: appendUnique([...marked.nextSteps], facts.nextSteps),
    files: facts.changedFiles,
  };
  const request = facts.goal[0] ?? (facts.unreadable ? undefined : marked.request);
  if (request) out.request = request;
  if (facts.goal.length > 1) out.requests = facts.goal;
  if (facts.unreadable) out.unreadable = facts.unreadable;
  return out;
}
