import { loadYaml } from './yaml.js';
import { parseSimpleYaml } from './simple-yaml.js';
import type { FileFormat, MemoryFile } from './types.js';
import { neutralizeControls } from '../markdown/escape.js';

const YAML_OUT = { lineWidth: 0, flowCollectionPadding: false } as const;

function isScalar(value: unknown): boolean {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

/** One `key: value` line as YAML would write it. */
function yamlLine(key: string, value: unknown): string {
  return loadYaml().stringify({ [key]: value }, YAML_OUT).replace(/\n$/, '');
}

/** A scalar as YAML would write it after `key: `. */
function yamlScalar(value: unknown): string {
  return loadYaml().stringify(value, YAML_OUT).replace(/\n$/, '');
}

/**
 * Set one key without touching anything else: flat frontmatter by setPlainKey, else the YAML document
 * model finds the key (quoted keys, `key :`, keys inside block scalars are told apart); a one-line scalar value is replaced where it
 * stands (a trailing comment stays), a missing key is appended to a block mapping, and any other
 * shape goes through the document model, which keeps comments and key order.
 */
function setFrontmatterKey(text: string, key: string, value: unknown): string {
  return setPlainKey(text, key, value) ?? setKeyByYaml(text, key, value);
}

/** setFrontmatterKey through the YAML document model: the reference the fast path is tested against. */
export function setKeyByYaml(text: string, key: string, value: unknown): string {
  const { parseDocument, isMap, isScalar: isScalarNode } = loadYaml();
  const doc = parseDocument(text);
  const map = doc.contents;
  const block = doc.errors.length === 0 && (map === null || (isMap(map) && !map.flow));
  if (block && isScalar(value)) {
    const pair = isMap(map) ? map.items.find((p) => isScalarNode(p.key) && p.key.value === key) : undefined;
    if (!pair) {
      return text === '' ? yamlLine(key, value) : `${text.replace(/\n+$/, '')}\n${yamlLine(key, value)}`;
    }
    const node = pair.value;
    const range = isScalarNode(node) ? node.range : undefined;
    if (range && node && isScalarNode(node) && !node.anchor && !node.tag && ONE_LINE_TYPES.has(String(node.type)) && !text.slice(range[0], range[1]).includes('\n')) {
      return text.slice(0, range[0]) + yamlScalar(value) + text.slice(range[1]);
    }
  }
  doc.set(key, value);
  return doc.toString(YAML_OUT).replace(/\n$/, '');
}

const ONE_LINE_TYPES = new Set(['PLAIN', 'QUOTE_DOUBLE', 'QUOTE_SINGLE']);

/**
 * setFrontmatterKey without loading `yaml`, for the frontmatter memctx itself writes (flush --hook
 * updates a session file this way): flat `key: value` lines that parseSimpleYaml reads, a plain scalar
 * replaced or appended. Undefined for anything else (test/kernel/store/serialize.test.ts compares the two).
 */
function setPlainKey(text: string, key: string, value: unknown): string | undefined {
  const scalar = PLAIN_KEY.test(key) ? plainScalar(value) : undefined;
  if (scalar === undefined) return undefined;
  if (text.replace(/\n+$/, '') === '') return text === '' ? `${key}: ${scalar}` : undefined;
  const data = parseSimpleYaml(text);
  if (data === undefined) return undefined;
  if (!Object.hasOwn(data, key)) return `${text.replace(/\n+$/, '')}\n${key}: ${scalar}`;
  if (typeof data[key] === 'object' && data[key] !== null) return undefined;
  const lines = text.split('\n');
  const at = lines.findIndex((line) => line.startsWith(`${key}:`));
  const match = /^([^:]+:[ \t]+)(.*?)([ \t]*)$/.exec(lines[at]);
  if (!match) return undefined;
  lines[at] = `${match[1]}${scalar}${match[3]}`;
  return lines.join('\n');
}

/**
 * A frontmatter value with its control characters (C0 but tab and newline, DEL, C1) made visible, in
 * every string it holds: `yaml` leaves C1 raw even in a quoted string, and a reader gets an escaped
 * `\e` back raw, to reach a terminal from a description. Every value memctx writes passes here.
 */
function withoutControls(value: unknown): unknown {
  if (typeof value === 'string') return neutralizeControls(value);
  if (Array.isArray(value)) return value.map(withoutControls);
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutControls(v)]));
  return value;
}

/** Set keys in a frontmatter block without touching anything else. */
export function setFrontmatterKeys(frontmatter: string, changes: Record<string, unknown>): string {
  let text = frontmatter;
  for (const [key, value] of Object.entries(changes)) text = setFrontmatterKey(text, key, withoutControls(value));
  return text;
}

/** A key the `yaml` package writes as it stands. */
const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;
/**
 * A one-line string it writes unquoted: ASCII and Latin letters, digits and a few marks, not starting with
 * a mark (no `: `, ` #`, quotes, brackets). No `\p{L}`: compiling that class costs a few milliseconds.
 */
const PLAIN_TEXT = /^[A-Za-z0-9\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u024F][A-Za-z0-9\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u024F _.,:;/()+=?!'"#&*|>%@`[\]{}\u2026-]*$/;
/** Strings the YAML core schema reads as something else: null, booleans, numbers. */
const NOT_A_STRING = /^(?:~|null|true|false|[-+]?(?:\.\d+|\d[\d_]*(?:\.\d*)?)(?:e[-+]?\d+)?|0o[0-7]+|0x[\da-f]+|[-+]?\.inf|\.nan)$/i;

/** `value` as `yaml` writes it after `key: `, when that is the value as it stands; undefined otherwise. */
function plainScalar(value: unknown): string | undefined {
  if (typeof value === 'boolean' || (typeof value === 'number' && Number.isSafeInteger(value))) return String(value);
  if (typeof value !== 'string' || !PLAIN_TEXT.test(value) || / $|: |:$| {2}| #/.test(value) || NOT_A_STRING.test(value)) return undefined;
  return value;
}

/**
 * The frontmatter of most new files (flush --hook writes one per session) without loading `yaml`: each
 * value a plain one-line scalar, as `yaml` writes it (test/store/serialize.test.ts compares the two).
 */
function plainFrontmatter(entries: [string, unknown][]): string | undefined {
  const lines: string[] = [];
  for (const [key, value] of entries) {
    const text = PLAIN_KEY.test(key) ? plainScalar(value) : undefined;
    if (text === undefined) return undefined;
    lines.push(`${key}: ${text}`);
  }
  return lines.join('\n');
}

/** A new frontmatter block from ordered entries (undefined values are left out): a block mapping, lists in flow style. */
export function newFrontmatter(entries: Record<string, unknown>): string {
  const defined = Object.entries(entries).filter(([, v]) => v !== undefined).map(([k, v]): [string, unknown] => [k, withoutControls(v)]);
  const plain = defined.length ? plainFrontmatter(defined) : undefined;
  if (plain !== undefined) return plain;
  const clean = Object.fromEntries(defined);
  const { Document, visit } = loadYaml();
  const doc = new Document(clean);
  visit(doc, {
    Seq(_key, seq) {
      seq.flow = true;
    },
  });
  return doc.toString(YAML_OUT).replace(/\n$/, '');
}

/** Put a file back together in the format it was read in (BOM, line endings). */
export function assembleFile(frontmatter: string | undefined, body: string, format: Pick<FileFormat, 'bom' | 'eol'>): string {
  let text = frontmatter === undefined ? body : `---\n${frontmatter === '' ? '' : `${frontmatter}\n`}---\n${body}`;
  if (format.eol === '\r\n') text = text.replace(/\r?\n/g, '\r\n');
  return format.bom ? `\uFEFF${text}` : text;
}

/** The file's text after setting frontmatter keys and optionally replacing the body. */
export function serializeMemoryFile(file: MemoryFile, changes: Record<string, unknown>, body = file.body): string {
  const frontmatter = setFrontmatterKeys(file.hasFrontmatter ? file.frontmatter : '', changes);
  return assembleFile(frontmatter, body, file.format);
}
