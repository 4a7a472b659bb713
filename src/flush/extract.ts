/**
 * What a transcript gives a flush: marked lines (`DECISION:`, `BLOCKER:`, `TODO:`, `Next steps:`,
 * and `GOAL:`, `DONE:`/`PROGRESS:`) in the conversation's messages, the first user request as the
 * goal when nothing else gives one, and the files that tool calls wrote or edited.
 */
import { appendUnique } from './fields.js';

/** The part of a transcript item extraction reads (the transcript readers' item shape). */
export interface ExtractItem {
  role: string;
  kind: 'message' | 'tool_call' | 'tool_result';
  text: string;
  toolName?: string;
  toolInput?: unknown;
  isError?: boolean;
  sidechain?: boolean;
}

export interface Extracted {
  goal: string[];
  progress: string[];
  decisions: string[];
  blockers: string[];
  nextSteps: string[];
  /** Paths written or edited by tool calls, as the calls gave them, first write first. */
  files: string[];
  /** The first line of the first user request: the goal when nothing else gives one. */
  request?: string;
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
const LIST_LINE = /^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?(.+)$/;
const FENCE = /^\s*(```|~~~)/;

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
  let fence = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (FENCE.test(line)) {
      fence = !fence;
      continue;
    }
    if (fence || !line.includes(':')) continue;
    const m = MARKED.exec(line);
    const marker = m ? markerOf(m[1]) : undefined;
    if (!m || !marker) continue;
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

const WRITE_TOOLS = new Set(['write', 'edit', 'multiedit', 'notebookedit', 'write_file', 'edit_file', 'create_file', 'str_replace_editor', 'str_replace_based_edit_tool', 'replace_in_file', 'apply_diff', 'insert_content']);
const PATH_KEYS = ['file_path', 'notebook_path', 'path', 'filePath', 'target_file', 'filename'];
const READ_ONLY_COMMANDS = new Set(['view', 'read']);

/** Paths in an apply_patch-style patch (`*** Add File: x`, `*** Update File: x`, `*** Move to: y`). */
export function patchPaths(patch: string): string[] {
  const paths: string[] = [];
  for (const m of patch.matchAll(/^\*\*\* (?:Add|Update|Delete) File: (.+)$|^\*\*\* Move to: (.+)$/gm)) paths.push((m[1] ?? m[2]).trim());
  return paths;
}

/** Files one tool call writes or edits. */
export function writtenFiles(toolName: string | undefined, input: unknown): string[] {
  if (!toolName) return [];
  const name = toolName.toLowerCase();
  if (name === 'apply_patch' || name === 'applypatch') {
    if (typeof input === 'string') return patchPaths(input);
    if (input && typeof input === 'object') {
      const o = input as Record<string, unknown>;
      const patch = o.input ?? o.patch;
      return typeof patch === 'string' ? patchPaths(patch) : [];
    }
    return [];
  }
  if (!WRITE_TOOLS.has(name) || !input || typeof input !== 'object') return [];
  const o = input as Record<string, unknown>;
  if (typeof o.command === 'string' && READ_ONLY_COMMANDS.has(o.command)) return [];
  for (const key of PATH_KEYS) if (typeof o[key] === 'string' && (o[key] as string).trim()) return [(o[key] as string).trim()];
  return [];
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

/** Read a transcript's items for a flush. Sidechain (subagent) content and tool output are skipped. */
export function extractFromTranscript(items: Iterable<ExtractItem>): Extracted {
  const out: Extracted = { goal: [], progress: [], decisions: [], blockers: [], nextSteps: [], files: [] };
  const todos: string[] = [];
  let lastNext: string[] = [];
  let request: string | undefined;
  for (const item of items) {
    if (item.sidechain) continue;
    if (item.kind === 'tool_call') {
      appendUnique(out.files, writtenFiles(item.toolName, item.toolInput));
      continue;
    }
    if (item.kind !== 'message' || (item.role !== 'user' && item.role !== 'assistant')) continue;
    if (request === undefined && item.role === 'user') request = firstRequest(item.text);
    if (!item.text.includes(':')) continue;
    for (const found of markedLines(item.text)) {
      if (found.marker === 'todo') appendUnique(todos, found.items);
      else if (found.marker === 'next') lastNext = found.items;
      else appendUnique(out[found.marker], found.items);
    }
  }
  if (request) out.request = request;
  appendUnique(out.nextSteps, todos);
  appendUnique(out.nextSteps, lastNext);
  return out;
}
