/**
 * A fast path for the frontmatter almost every memory file has: flat `key: value` lines with plain
 * scalars or short flow lists. It returns undefined for anything else, and the caller then uses the
 * `yaml` package, which stays the reference (a test checks both agree on random input).
 * Parsing 10,000 small blocks with `yaml` costs ~0.7 s; this path costs a few ms.
 */

const KEY = /^([A-Za-z_][A-Za-z0-9_-]*):(?: (.*))?$/;
// Characters a plain scalar may hold here: no indicators, quotes, comments, tabs or line separators.
const PLAIN = /^[A-Za-z0-9_/(\u00A1-\u2027\u202A-\uFEFE\uFF00-\uFFFD\uD800-\uDFFF][^#'"\t\[\]{}&*!|>%@`\u0000-\u001F\u007F-\u00A0\u2028\u2029\uFEFF]*$/;
const FLOW_ITEM = /^[A-Za-z0-9_/(\u00A1-\u2027\u202A-\uFEFE\uFF00-\uFFFD\uD800-\uDFFF][^#'"\t\[\]{},&*!|>%@`\u0000-\u001F\u007F-\u00A0\u2028\u2029\uFEFF]*$/;
const INT = /^[-+]?[0-9]+$/;
const FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const NULLS = new Set(['~', 'null', 'Null', 'NULL']);
const BOOLS = new Map([
  ['true', true], ['True', true], ['TRUE', true],
  ['false', false], ['False', false], ['FALSE', false],
]);
const FAIL = Symbol('fail');

const isWhite = (c: number) => c === 32 || c === 9;

/** YAML's white space is only space and tab (String.prototype.trim would also eat U+3000 and friends). */
function trimWhite(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isWhite(text.charCodeAt(start))) start++;
  while (end > start && isWhite(text.charCodeAt(end - 1))) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

/** Resolve one plain scalar the way YAML 1.2's core schema does, or FAIL when unsure. */
function plainScalar(raw: string, pattern: RegExp): unknown {
  const text = trimWhite(raw);
  if (text === '' || !pattern.test(text)) return FAIL;
  // `a: b` inside a value, or a colon at its end, is not for the fast path.
  if (text.includes(': ') || text.endsWith(':')) return FAIL;
  const first = text.charCodeAt(0);
  if (first >= 0x30 && first <= 0x39) {
    if (INT.test(text)) return Number.parseInt(text, 10);
    if (FLOAT.test(text)) return Number.parseFloat(text);
    if (first === 0x30 && /^0[ox]/i.test(text)) return FAIL;
    return text;
  }
  if (text.length <= 5) {
    if (NULLS.has(text)) return null;
    const bool = BOOLS.get(text);
    if (bool !== undefined) return bool;
  }
  return text;
}

function flowList(raw: string): unknown {
  const text = trimWhite(raw);
  if (!text.startsWith('[') || !text.endsWith(']')) return FAIL;
  const inner = trimWhite(text.slice(1, -1));
  if (inner === '') return [];
  const items: unknown[] = [];
  for (const part of inner.split(',')) {
    const value = plainScalar(part, FLOW_ITEM);
    if (value === FAIL) return FAIL;
    items.push(value);
  }
  return items;
}

/** Parse a flat block of `key: value` lines, or return undefined when it needs the full parser. */
export function parseSimpleYaml(src: string): Record<string, unknown> | undefined {
  const data: Record<string, unknown> = {};
  for (const line of src.split('\n')) {
    if (trimWhite(line) === '') continue;
    if (line.startsWith('#')) continue;
    const match = KEY.exec(line);
    if (!match) return undefined;
    const key = match[1];
    // Keys that YAML reads as null or a boolean (`null: x` is the key ""), and repeated keys.
    if (key === '__proto__' || NULLS.has(key) || BOOLS.has(key) || Object.prototype.hasOwnProperty.call(data, key)) return undefined;
    const raw = match[2];
    if (raw === undefined || trimWhite(raw) === '') return undefined;
    const value = raw.startsWith('[') ? flowList(raw) : plainScalar(raw, PLAIN);
    if (value === FAIL) return undefined;
    data[key] = value;
  }
  return data;
}
