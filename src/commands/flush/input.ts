/** Parse the `--from` document (JSON or YAML) into field values, with the line of every problem. */
import { MemctxError } from '../../kernel/errors.js';
import { loadYaml, nodeLine, parseYamlSafely, YamlFailure, type ParsedYaml } from '../../kernel/store/yaml.js';
import { emptyValues, cleanValue, normalizeKey, type FieldValues } from '../../kernel/summary/fields.js';
import { lineAt } from '../../kernel/lines.js';

/** A problem in the `--from` document; `line` is 1-based. */
export class FlushInputError extends MemctxError {
  declare readonly hint: string;
  constructor(message: string, line: number | undefined, hint: string) {
    super(message, { line, hint });
    this.name = 'FlushInputError';
  }
}

export type InputFormat = 'json' | 'yaml';

export interface ParsedInput {
  /** Values under normalized keys (`changed_files` → `changedFiles`). */
  values: FieldValues;
  /** Keys as written, with their normalized form and line. */
  keys: { key: string; normalized: string; line?: number }[];
}

/** JSON when the name ends in .json or the text starts with `{` or `[`; YAML otherwise. */
export function detectFormat(name: string | undefined, text: string): InputFormat {
  if (name && /\.json$/i.test(name)) return 'json';
  if (name && /\.ya?ml$/i.test(name)) return 'yaml';
  return /^\s*[[{]/.test(text.replace(/^\uFEFF/, '')) ? 'json' : 'yaml';
}

/** Where JSON.parse fails: its own position, else the shortest prefix that fails other than at its end. */
function jsonErrorOffset(text: string, message: string): number | undefined {
  const position = /at position (\d+)/.exec(message);
  if (position) return Number(position[1]);
  const failsBefore = (k: number) => {
    try {
      JSON.parse(text.slice(0, k));
      return false;
    } catch (err) {
      return !/Unexpected end of JSON input|Unterminated string/.test((err as Error).message);
    }
  };
  if (!failsBefore(text.length)) return /Unexpected end/.test(message) ? text.trimEnd().length : undefined;
  let lo = 1;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (failsBefore(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo - 1;
}

/** Strict JSON first (YAML would accept a trailing comma), with the line of the first error. */
function checkJson(text: string): void {
  try {
    JSON.parse(text);
  } catch (err) {
    const raw = (err as Error).message;
    const message = raw.replace(/, (?:\.\.\.)?"[\s\S]*" is not valid JSON$/, '').replace(/ (?:in JSON )?at position \d+.*$/s, '');
    const offset = jsonErrorOffset(text, raw);
    throw new FlushInputError(`invalid JSON: ${message}`, offset === undefined ? undefined : lineAt(text, offset), 'fix the JSON syntax (keys and strings in double quotes, no trailing commas)');
  }
}

function scalarText(value: unknown): string | undefined {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString();
  return undefined;
}

/** A value as a list of strings, or undefined when it is not a string, number or list of those. */
function asItems(value: unknown): string[] | undefined {
  if (Array.isArray(value)) {
    const items: string[] = [];
    for (const item of value) {
      const text = scalarText(item);
      if (text === undefined) return undefined;
      items.push(text);
    }
    return items.map(cleanValue).filter((s) => s !== '');
  }
  const text = scalarText(value);
  if (text === undefined) return undefined;
  const clean = cleanValue(text);
  return clean === '' ? [] : [clean];
}

/**
 * Parse a `--from` document: a mapping whose values are strings, numbers or lists of them. Throws
 * FlushInputError naming the line for syntax errors, a document that is not a mapping, and values
 * of another shape.
 */
export function parseFieldsText(text: string, format: InputFormat): ParsedInput {
  const source = text.replace(/^\uFEFF/, '');
  if (source.trim() === '') return { values: {}, keys: [] };
  if (format === 'json') checkJson(source);
  const name = format === 'json' ? 'JSON' : 'YAML';
  let parsed: ParsedYaml;
  try {
    parsed = parseYamlSafely(source, { schema: format === 'json' ? 'json' : 'core', name });
  } catch (err) {
    if (err instanceof YamlFailure) throw new FlushInputError(err.message, err.line, err.hint ?? `fix the ${name} syntax`);
    throw err;
  }
  const { doc, lineCounter } = parsed;
  // The package as store/yaml.ts loads it (on first use): an import of `yaml` here would load it with every flush.
  const { isMap, isScalar } = loadYaml();
  const data = parsed.data as Record<string, unknown>;
  if (doc.contents === null) return { values: {}, keys: [] };
  if (!isMap(doc.contents)) {
    throw new FlushInputError('the document must be a mapping of field names to values', nodeLine(lineCounter, doc.contents) ?? 1, 'write it as `goal: …`, `decisions: [ … ]` (YAML) or {"goal": "…"} (JSON)');
  }
  const values = emptyValues();
  const keys: ParsedInput['keys'] = [];
  for (const pair of doc.contents.items) {
    const line = nodeLine(lineCounter, pair.key as never);
    const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
    if (key === undefined) throw new FlushInputError('keys must be plain names', line, 'use field names such as goal, progress, decisions');
    const items = asItems(data[key]);
    if (items === undefined) {
      throw new FlushInputError(`\`${key}\` must be a string or a list of strings`, nodeLine(lineCounter, pair.value as never) ?? line, 'nested mappings are not fields; write one line of text per list item');
    }
    const normalized = normalizeKey(key);
    keys.push({ key, normalized, line });
    values[normalized] = [...(values[normalized] ?? []), ...items];
  }
  return { values, keys };
}
