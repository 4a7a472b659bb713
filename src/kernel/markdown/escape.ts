/**
 * Escaping for what memory content contributes to generated Markdown (MEMORY.md, session files,
 * bundles) and to the terminal. Memory files come from pull requests and transcripts: nothing in
 * them may add structure (markers, HTML comments, raw HTML, links, new lines) or reach a terminal
 * as a control sequence.
 */

/** C0 controls except tab and newline, DEL, and the C1 range (0x80-0x9f, where 0x9b is a CSI). */
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** A control character as a visible symbol (U+2400 control pictures; C1 as U+FFFD). */
function visible(c: string): string {
  const code = c.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return '\u2421';
  return '\ufffd';
}

/** Control characters (ESC, CR, BEL, C1 …) as visible symbols; tabs and newlines are kept. */
export function neutralizeControls(text: string): string {
  return text.replace(CONTROLS, visible);
}

/** A memory file's text for output (show, search --open): every control made visible, CRLF line ends kept. */
export function memoryTextOut(text: string): string {
  return text.split('\r\n').map(neutralizeControls).join('\r\n');
}

/** JSON text with DEL and C1 controls written as \u escapes (JSON.stringify leaves them raw); the same data. */
export function jsonSafe(json: string): string {
  return json.replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Every line break and control character as one space or a visible symbol: text that stays on one line. */
function oneLine(text: string): string {
  return neutralizeControls(text.replace(/[\t\n\r\u2028\u2029\u0085]+/g, ' '));
}

/** User text for a one-line report (lint, ls): line breaks shown as `\n`, other controls made visible. */
export function singleLine(text: string): string {
  return neutralizeControls(text.replace(/\r\n|[\r\n\u2028\u2029\u0085]/g, '\\n'));
}

/** A code fence longer than any run of three or more backticks in the text, so the text cannot close it. */
export function fenceFor(text: string): string {
  // Native searches for each run of three (no pattern over the whole text, no array of matches).
  let longest = 2;
  for (let at = text.indexOf('```'); at >= 0; at = text.indexOf('```', at)) {
    let end = at + 3;
    while (text.charCodeAt(end) === 96) end++;
    longest = Math.max(longest, end - at);
    at = end;
  }
  return '`'.repeat(longest + 1);
}

/** At most `max` characters (whole code points), ending with "…" when cut. */
function capLength(text: string, max: number): string {
  if (text.length <= max) return text;
  const points = Array.from(text);
  return points.length <= max ? text : `${points.slice(0, Math.max(0, max - 1)).join('')}…`;
}

/** Text inlineMarkdown would change: anything but printable ASCII, a character it escapes, two spaces, a space at either end. */
const NOT_PLAIN_INLINE = /[^\x20-\x3b\x3d-\x5a\x5e-\x7e]| {2}|^ | $/;

/**
 * User text as inline Markdown on one line: backslash, brackets and `<` are escaped, so it opens no
 * link, HTML tag, HTML comment or autolink, and can never be one of memctx's markers.
 */
export function inlineMarkdown(text: string, max = Number.POSITIVE_INFINITY): string {
  // Most names and descriptions need none of it: one test instead of five passes (an index lists thousands).
  if (text.length <= max && !NOT_PLAIN_INLINE.test(text)) return text;
  return capLength(oneLine(text).replace(/ {2,}/g, ' ').trim(), max).replace(/[\\[\]<]/g, '\\$&');
}

/** A path as a link target: characters outside a safe set percent-encoded (also `(`, `)`, `<`, `>`). */
export function linkTarget(path: string): string {
  if (/^[A-Za-z0-9_./-]*$/.test(path)) return path;
  return path
    .split('/')
    .map((part) => encodeURIComponent(part).replace(/[()!'*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`))
    .join('/');
}

/** A path inside inline code (`` `path` ``): on one line, with no backtick to close the span early. */
export function codePath(path: string): string {
  return oneLine(path).replace(/`/g, "'");
}

const HTML_START = /&((?:amp;)*)lt;|<(?=[A-Za-z/?!])/g;

/**
 * `<` that would start an HTML tag, comment or autolink becomes `&lt;`; text already reading
 * `&lt;` gains an `amp;` so that `unescapeHtmlStart` gives back exactly the original.
 */
export function escapeHtmlStart(text: string): string {
  return text.replace(HTML_START, (match, amps: string | undefined) => (match === '<' ? '&lt;' : `&amp;${amps ?? ''}lt;`));
}

export function unescapeHtmlStart(text: string): string {
  return text.replace(/&((?:amp;)*)lt;/g, (_m, amps: string) => (amps ? `&${amps.slice(4)}lt;` : '<'));
}

/** SGR (colours) and the few cursor sequences ora's spinner writes: the only escapes memctx itself emits. */
const OWN_SEQUENCE = /^\u001b\[(?:[0-9;]*[mGKA]|\?25[hl])/;

/**
 * Text bound for a terminal: memctx's own colour and spinner sequences pass, every other control
 * character (OSC title or clipboard writes, cursor moves, CR overwrites, BEL, C1) is made visible.
 */
export function terminalSafe(text: string): string {
  if (!/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.test(text)) return text;
  let out = '';
  let last = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 9 || code === 10 || (code === 13 && text.charCodeAt(i + 1) === 10) || (code >= 0x20 && code < 0x7f) || code > 0x9f) continue;
    if (code === 0x1b) {
      const own = OWN_SEQUENCE.exec(text.slice(i, i + 16));
      if (own) {
        i += own[0].length - 1;
        continue;
      }
    }
    out += text.slice(last, i) + visible(text[i]);
    last = i + 1;
  }
  return out + text.slice(last);
}
