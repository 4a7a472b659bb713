/**
 * A memory file's passages: the pieces a large file contributes to a bundle instead of its whole
 * text. A passage starts at a heading, a dialogue turn (`**user:** …`, `Alice: …`) or a list item,
 * and ends at a blank line or before the next such start; a short one (a heading) joins the next.
 * Fenced code stays whole unless it is too long. A unit longer than `maxChars` is cut by sentence,
 * and a sentence longer than that by size (at a space where there is one), so a file that is one
 * 200 KB line still has passages. Lines are numbered as in the file (1-based), frontmatter
 * included; a passage's text is its lines joined, so it is found verbatim in the file. Linear in
 * the text's length.
 */

export interface Passage {
  /** First and last line, 1-based, in the whole file. */
  start: number;
  end: number;
  text: string;
}

export interface PassageOptions {
  /** A passage longer than this is cut (by sentence, then by size). */
  maxChars?: number;
  /** A unit shorter than this joins the next one of the same section. */
  minChars?: number;
}

const MAX_PASSAGE_CHARS = 4000;
const MIN_PASSAGE_CHARS = 60;

const HEADING = /^#{1,6}\s/;
const LIST_ITEM = /^\s{0,3}(?:[-*+]|\d{1,9}[.)])\s/;
/** `**user:**`, `**Alice**:`, `User:`, `Dr. Smith:`: a speaker name (up to 40 characters) then a colon. */
const TURN = /^(?:\*\*[^*\n]{1,40}?(?::\*\*|\*\*:)|[\p{Lu}][\p{L}\p{N} ._'-]{0,39}:)\s/u;
const BOLD_TURN = /^\*\*([^*\n]{1,40}?)(?::\*\*|\*\*:)\s/u;
const FENCE = /^\s{0,3}(`{3,}|~{3,})/;

/** The speaker when a passage opens with a transcript's turn, a bold name (`**user:** …`, `**Alice**: …`); else undefined. */
export function speakerOf(text: string): string | undefined {
  return BOLD_TURN.exec(text)?.[1];
}

/**
 * Whether a file is a transcript: most of its passages are turns, and its speakers speak again (a
 * note's `**Status:**` and `**Context:**` lines each come once).
 */
export function isDialogue(pieces: readonly Passage[]): boolean {
  const speakers = new Map<string, number>();
  for (const p of pieces) {
    const speaker = speakerOf(p.text);
    if (speaker !== undefined) speakers.set(speaker, (speakers.get(speaker) ?? 0) + 1);
  }
  const turns = [...speakers.values()].reduce((a, b) => a + b, 0);
  return turns >= 4 && turns * 2 >= pieces.length && speakers.size * 2 <= turns;
}

/** Whether a passage opens with a dialogue turn or a list item: one of a run, read with its neighbours. */
export function isTurnOrItem(text: string): boolean {
  return TURN.test(text) || LIST_ITEM.test(text);
}

/** The line where a file's body starts (after a leading frontmatter block), 0-based. */
function bodyStart(lines: readonly string[]): number {
  if (lines[0]?.replace(/\r$/, '') !== '---') return 0;
  for (let i = 1; i < lines.length; i++) if (/^(?:---|\.\.\.)\s*$/.test(lines[i])) return i + 1;
  return 0;
}

/** Cut a long text into pieces of at most `max` characters: at sentence ends, else at a space, else anywhere. */
export function cutText(text: string, max: number): string[] {
  if (text.length <= max) return [text];
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const window = rest.slice(0, max + 1);
    // The last sentence end in the window (". ", "? ", "! ", "。"), else the last space.
    let cut = -1;
    const sentence = /[.!?。！？](?=\s|$)|[。！？]/gu;
    for (let m = sentence.exec(window); m !== null; m = sentence.exec(window)) if (m.index + m[0].length <= max) cut = m.index + m[0].length;
    if (cut < max / 4) cut = window.lastIndexOf(' ', max);
    if (cut < max / 4) cut = max;
    // Never split a surrogate pair.
    if (/[\uD800-\uDBFF]/.test(rest[cut - 1] ?? '')) cut--;
    pieces.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  if (rest !== '') pieces.push(rest);
  return pieces.filter((p) => p !== '');
}

type Unit = Passage & { heading: boolean };

/** The text's units from its body: blocks split at blank lines, headings, list items and dialogue turns (a fenced block kept whole). */
function scanUnits(lines: readonly string[]): Unit[] {
  const units: Unit[] = [];
  let open: { start: number; end: number; parts: string[]; heading: boolean } | undefined;
  let fence: string | undefined;
  const close = () => {
    if (open) units.push({ start: open.start, end: open.end, text: open.parts.join('\n'), heading: open.heading });
    open = undefined;
  };
  for (let i = bodyStart(lines); i < lines.length; i++) {
    const line = lines[i].replace(/\r$/, '');
    const n = i + 1;
    if (fence !== undefined) {
      open!.parts.push(line);
      open!.end = n;
      if (line.trim().startsWith(fence)) fence = undefined;
      continue;
    }
    if (line.trim() === '') {
      close();
      continue;
    }
    if (HEADING.test(line) || LIST_ITEM.test(line) || TURN.test(line)) close();
    open ??= { start: n, end: n, parts: [], heading: HEADING.test(line) };
    open.parts.push(line);
    open.end = n;
    const opening = FENCE.exec(line);
    if (opening) fence = opening[1][0].repeat(opening[1].length);
  }
  close();
  return units;
}

/** Join a short unit to the next one (not across a heading); cut a long one. */
function sizeUnits(units: readonly Unit[], lines: readonly string[], min: number, max: number): Passage[] {
  const out: Passage[] = [];
  let carry: Passage | undefined;
  for (const unit of units) {
    let current: Passage = { start: unit.start, end: unit.end, text: unit.text };
    if (carry && !unit.heading && carry.text.length + unit.text.length < max) {
      current = { start: carry.start, end: unit.end, text: lines.slice(carry.start - 1, unit.end).join('\n').replace(/\r$/gm, '') };
    }
    else if (carry) out.push(carry);
    carry = undefined;
    if (current.text.length < min) {
      carry = current;
      continue;
    }
    if (current.text.length <= max) out.push(current);
    else out.push(...cutUnit(current, max));
  }
  if (carry) out.push(carry);
  return out;
}

/** The passages of a file's text (frontmatter skipped). */
export function splitPassages(text: string, options: PassageOptions = {}): Passage[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return sizeUnits(scanUnits(lines), lines, options.minChars ?? MIN_PASSAGE_CHARS, options.maxChars ?? MAX_PASSAGE_CHARS);
}

/** A unit too long for one passage: by line groups when it has lines, and a line too long by sentence or size. */
function cutUnit(unit: Passage, max: number): Passage[] {
  const lines = unit.text.split('\n');
  const out: Passage[] = [];
  let group: string[] = [];
  let size = 0;
  let start = unit.start;
  const flush = (end: number) => {
    if (group.length) out.push({ start, end, text: group.join('\n') });
    group = [];
    size = 0;
  };
  lines.forEach((line, k) => {
    const n = unit.start + k;
    if (line.length > max) {
      flush(n - 1);
      for (const piece of cutText(line, max)) out.push({ start: n, end: n, text: piece });
      start = n + 1;
      return;
    }
    if (group.length && size + 1 + line.length > max) flush(n - 1);
    if (group.length === 0) start = n;
    group.push(line);
    size += line.length + 1;
  });
  flush(unit.end);
  return out;
}
