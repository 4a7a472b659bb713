/**
 * Plain text and Markdown transcripts. Turns start at a speaker line — a heading such as
 * `## User` / `### Assistant` / `## tool result`, or a label such as `User:` / `**Assistant:**` —
 * and run to the next one. Text with no speaker lines is split into paragraphs (blank-line
 * separated, fenced code blocks kept whole), so the largest parts can still be pointed at.
 */
import { splitLines } from '../jsonl.js';
import { fencedLines } from '../../markdown/links.js';
import { extractSession } from '../extract.js';
import { plainProfile } from './openai.js';
import { formatDetector } from '../registry.js';
import type { TranscriptFormatModule } from './format.js';
import type { ItemKind, Role, Transcript, TranscriptItem } from '../types.js';

const SPEAKERS = 'user|human|assistant|ai|claude|codex|system|developer|tool(?:[ _](?:call|result|output))?';
const HEADING = new RegExp(`^#{1,6}\\s+(${SPEAKERS})\\b`, 'i');
const LABEL = new RegExp(`^(?:\\*\\*)?(${SPEAKERS})(?:\\*\\*)?\\s*:(?:\\*\\*)?[ \\t]?(.*)$`, 'i');

function speaker(word: string): { role: Role; kind: ItemKind } {
  const w = word.toLowerCase().replace(/[ _]/g, ' ');
  if (w === 'tool call') return { role: 'assistant', kind: 'tool_call' };
  if (w.startsWith('tool')) return { role: 'tool', kind: 'tool_result' };
  if (w === 'user' || w === 'human') return { role: 'user', kind: 'message' };
  if (w === 'system' || w === 'developer') return { role: 'system', kind: 'message' };
  return { role: 'assistant', kind: 'message' };
}

interface Open {
  role: Role;
  kind: ItemKind;
  line: number;
  lines: string[];
}

function close(open: Open | undefined, items: TranscriptItem[]): void {
  if (!open) return;
  while (open.lines.length && open.lines[open.lines.length - 1].trim() === '') open.lines.pop();
  while (open.lines.length && open.lines[0].trim() === '') {
    open.lines.shift();
    open.line++;
  }
  if (open.lines.length) items.push({ role: open.role, kind: open.kind, text: open.lines.join('\n'), line: open.line });
}

/** Read a plain text or Markdown transcript. */
export function readTextTranscript(text: string, options: { firstLine?: number } = {}): Transcript {
  const lines = splitLines(text, options.firstLine);
  const items: TranscriptItem[] = [];
  const fenced = fencedLines(lines.map((l) => l.text));
  const turns = lines.some(({ text: t }, i) => !fenced[i] && (HEADING.test(t) || LABEL.test(t)));
  let open: Open | undefined;
  for (const [i, { line, text: t }] of lines.entries()) {
    if (!fenced[i] && turns) {
      const heading = HEADING.exec(t);
      const label = heading ? null : LABEL.exec(t);
      if (heading || label) {
        close(open, items);
        const s = speaker((heading ?? label)![1]);
        open = { ...s, line: line!, lines: label && label[2] ? [label[2]] : [] };
        if (!label || !label[2]) open.line = line! + 1;
        continue;
      }
    }
    if (!turns && !fenced[i] && t.trim() === '') {
      close(open, items);
      open = undefined;
      continue;
    }
    if (!open) open = { role: 'unknown', kind: 'message', line: line!, lines: [] };
    open.lines.push(t);
  }
  close(open, items);
  return { format: 'text', items, contextStart: 0, usage: null, notes: [] };
}

/** Plain text: the fallback. */
export const textFormat: TranscriptFormatModule = {
  ...formatDetector('text'),
  read: readTextTranscript,
  extract: (t, options = {}) => extractSession(t, plainProfile, options),
};
