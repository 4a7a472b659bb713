/**
 * Merging MEMORY.md three ways (git's merge driver, `memctx merge-index`): the hand-written text of
 * both sides is kept (where both added lines at one place, ours and then theirs; where both changed
 * the same lines, a conflict between git's markers), and the generated
 * block is rebuilt entry by entry: an entry either side added is listed, one either side removed is
 * dropped, one either side changed takes the change. Each index line comes from one memory file, so
 * this is the block the merged files give, groups in their order and entries sorted as `index`
 * sorts them. Pure: texts in, text out.
 */
import { diff3Merge } from 'node-diff3';
import { linkedPaths } from '../markdown/links.js';
import { BEGIN_MARKER, END_MARKER, GROUPS } from './groups.js';
import { IndexMarkerError, splitIndex } from './merge.js';

/** The merged text, and how many regions both sides changed differently (each between git's markers). */
export interface IndexMerge {
  text: string;
  conflicts: number;
}

/**
 * Where both sides only added lines at one place: ours, then the lines of theirs that ours does not
 * have. Where both changed the same lines differently: the two versions between git's markers.
 */
function lineMerge(ours: string[], base: string[], theirs: string[]): { lines: string[]; conflicts: number } {
  const lines: string[] = [];
  let conflicts = 0;
  for (const region of diff3Merge(ours, base, theirs, { excludeFalseConflicts: true })) {
    if (region.ok) lines.push(...region.ok);
    else if (region.conflict) {
      const { a, o, b } = region.conflict as { a: string[]; o: string[]; b: string[] };
      if (o.every((line) => line.trim() === '')) lines.push(...a, ...b.filter((line) => line.trim() === '' || !a.includes(line)));
      else {
        lines.push('<<<<<<< ours', ...a, '=======', ...b, '>>>>>>> theirs');
        conflicts++;
      }
    }
  }
  return { lines, conflicts };
}

interface Block {
  /** Entry lines by the file they link, with the group heading they were under. */
  entries: Map<string, { line: string; group: string }>;
  /** Lines that are neither headings nor entries (a group's "N more" line), by group. */
  other: Map<string, string[]>;
}

const HEADING = /^## (.+)$/;
const ENTRY = /^- \[/;

function parseBlock(block: string, eol: string): Block {
  const entries = new Map<string, { line: string; group: string }>();
  const other = new Map<string, string[]>();
  let group = '';
  for (const line of block.split(eol).slice(1, -1)) {
    const heading = HEADING.exec(line);
    if (heading) group = heading[1];
    else if (ENTRY.test(line)) entries.set([...linkedPaths(line)][0] ?? line, { line, group });
    else if (line.trim() !== '') other.set(group, [...(other.get(group) ?? []), line]);
  }
  return { entries, other };
}

function mergeBlocks(ours: Block, base: Block, theirs: Block): Block {
  const entries = new Map<string, { line: string; group: string }>();
  for (const key of new Set([...ours.entries.keys(), ...theirs.entries.keys()])) {
    const a = ours.entries.get(key);
    const b = theirs.entries.get(key);
    const o = base.entries.get(key);
    if (o && (!a || !b)) continue; // removed on one side
    const changedByUs = a && (!o || a.line !== o.line || a.group !== o.group);
    entries.set(key, changedByUs || !b ? a! : b);
  }
  return { entries, other: ours.other };
}

function renderBlock(block: Block, eol: string): string {
  const known = GROUPS.map((g) => g.title);
  const groups = new Set([...block.entries.values()].map((e) => e.group));
  for (const group of block.other.keys()) if (group !== '') groups.add(group);
  const order = [...groups].sort((x, y) => (known.indexOf(x) + 1 || known.length + 1) - (known.indexOf(y) + 1 || known.length + 1) || (x < y ? -1 : 1));
  const sections = order.map((group) => {
    const keys = [...block.entries].filter(([, e]) => e.group === group).map(([key]) => key);
    // Sessions are listed newest first (their names start with the date), every other group by path.
    keys.sort((x, y) => (group === 'Sessions' ? (x < y ? 1 : x > y ? -1 : 0) : x < y ? -1 : x > y ? 1 : 0));
    return [`## ${group}`, '', ...keys.map((key) => block.entries.get(key)!.line), ...(block.other.get(group) ?? [])].join(eol);
  });
  const lead = block.other.get('') ?? [];
  return [BEGIN_MARKER, ...(sections.length ? [sections.join(`${eol}${eol}`)] : lead), END_MARKER].join(eol);
}

/** The three texts as hand text with a placeholder for the block, and the blocks; undefined when the markers are broken or missing in any. */
function parts(text: string) {
  try {
    const split = splitIndex(text);
    return split.block === undefined ? undefined : split;
  } catch (err) {
    if (err instanceof IndexMarkerError) return undefined;
    throw err;
  }
}

const PLACEHOLDER = '\u0000memctx-generated-block\u0000';

/** MEMORY.md merged from the common ancestor and both sides (see the module comment), with ours' line endings. */
export function mergeIndexTexts(base: string, ours: string, theirs: string): IndexMerge {
  // Merged as LF text (a side saved with CRLF would otherwise be one long line), written back as ours is.
  const crlf = ours.includes('\r\n');
  const merged = mergeLF(...([base, ours, theirs].map((text) => text.replace(/\r\n/g, '\n')) as [string, string, string]));
  return crlf ? { ...merged, text: merged.text.replace(/\n/g, '\r\n') } : merged;
}

function mergeLF(base: string, ours: string, theirs: string): IndexMerge {
  const split = [ours, base, theirs].map(parts);
  const lines = (text: string) => text.split('\n');
  if (split.some((s) => s === undefined)) {
    const whole = lineMerge(lines(ours), lines(base), lines(theirs));
    return { text: whole.lines.join('\n'), conflicts: whole.conflicts };
  }
  const [a, o, b] = split as NonNullable<ReturnType<typeof parts>>[];
  const merged = lineMerge(...([a, o, b].map((p) => lines(`${p.before}${PLACEHOLDER}${p.after}`)) as [string[], string[], string[]]));
  const hand = merged.lines.join('\n');
  const block = renderBlock(mergeBlocks(parseBlock(a.block!, '\n'), parseBlock(o.block!, '\n'), parseBlock(b.block!, '\n')), '\n');
  const at = hand.indexOf(PLACEHOLDER);
  // Both sides moved the block: the hand text holds it twice; the first place is kept.
  const rest = hand.slice(at + PLACEHOLDER.length).split(PLACEHOLDER).join('');
  return { text: at === -1 ? `${hand}\n${block}\n` : `${hand.slice(0, at)}${block}${rest}`, conflicts: merged.conflicts };
}
