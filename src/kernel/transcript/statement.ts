/** One statement from an agent's text: whitespace collapsed, leading Markdown dropped, its first sentence, bounded. */
import { fencedLines } from '../markdown/links.js';

/** A text's lines outside fenced code blocks (code is never a statement). */
export function proseLines(text: string): string[] {
  const lines = text.split('\n');
  const fenced = fencedLines(lines);
  return lines.filter((_, i) => !fenced[i]);
}

/** Whitespace collapsed, leading Markdown dropped, the first sentence, at most `max` characters. */
export function condense(text: string, max = 200): string {
  let t = text.replace(/\s+/g, ' ').replace(/^(?:#+\s*|[-*+]\s+|\d+[.)]\s+)+/, '').replace(/\*\*/g, '').trim().replace(/:$/, '');
  const end = t.search(/[.!?](?:\s|$)/);
  if (end > 20 && end < t.length - 1) t = t.slice(0, end + 1);
  if (t.length <= max) return t;
  const space = t.lastIndexOf(' ', max - 1);
  return `${t.slice(0, space > max - 40 ? space : max - 1)}…`;
}

/** A statement whole (one or more sentences, markup dropped), or undefined when it is longer than `max`: a decision is never cut. */
export function wholeStatement(text: string, max = 260): string | undefined {
  const t = text.replace(/\s+/g, ' ').replace(/^(?:#+\s*|[-*+]\s+|\d+[.)]\s+)+/, '').replace(/\*\*/g, '').trim().replace(/:$/, '');
  if (t.length <= max) return t;
  const first = t.slice(0, t.search(/[.!?](?:\s|$)/) + 1);
  return first.length >= 25 && first.length <= max ? first : undefined;
}

/** A statement's identity for de-duplication: its words, lower case, a marker prefix (`DECISION:`) dropped. */
export function statementKey(text: string): string {
  return text.toLowerCase().replace(/^\W*(?:decisions?|blockers?|todo|next steps?|done|progress)\W*:/, '').replace(/\W+/g, ' ').trim();
}

/** Add items whose key is new and neither contains nor is contained in a kept one's (at most `max` in all). */
export function addDistinct(list: string[], items: Iterable<string>, max = Infinity): string[] {
  const keys = list.map(statementKey);
  for (const item of items) {
    if (list.length >= max) break;
    const key = statementKey(item);
    if (!key || keys.some((k) => k === key || (k.length > 30 && key.includes(k)) || (key.length > 30 && k.includes(key)))) continue;
    keys.push(key);
    list.push(item);
  }
  return list;
}
