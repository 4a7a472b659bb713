/**
 * The building blocks of the operation schemas (valibot): each field says its type, allowed values and
 * what it means once, and `parseInput` turns the first problem into one MemctxError naming the field as
 * the door spells it (`--budget` on the command line, `budget` through MCP and the library).
 * valibot rather than zod: it loads in about a sixth of zod's time (bench: `npm run bench -- schemas`),
 * and the CLI commands that parse options pay it on every run.
 */
import * as v from 'valibot';
import { MemctxError } from './errors.js';
import { closestMatch } from './text/suggest.js';
import { MEMORY_KINDS, MEMORY_TYPES } from './store/schema.js';

/** How a door names a field: `--min-importance` for the CLI, `min_importance` for MCP and the library. */
export type Label = (key: string) => string;
export const CLI_LABEL: Label = (key) => `--${key.replace(/_/g, '-')}`;
export const ARG_LABEL: Label = (key) => key;

// eslint-disable-next-line @typescript-eslint/no-base-to-string -- objects and lists are named before; what is left (a number, boolean, bigint) prints as itself
const got = (input: unknown) => (typeof input === 'string' ? JSON.stringify(input) : input === undefined ? 'nothing' : Array.isArray(input) ? 'a list' : input === null ? 'null' : typeof input === 'object' ? 'an object' : `${typeof input} ${String(input)}`);

export const text = (description: string) => v.pipe(v.string((i) => `must be a string, got ${got(i.input)}`), v.description(description));

/** A file's path: a string, not empty. */
export const path = (description: string) => v.pipe(v.string((i) => `must be a string, got ${got(i.input)}`), v.minLength(1, 'is empty'), v.description(description));

/** A string that must hold more than white space. */
export const words = (description: string) =>
  v.pipe(v.string((i) => `must be a string, got ${got(i.input)}`), v.check((s) => s.trim() !== '', 'is empty (only white space)'), v.description(description));

export const flag = (description: string) => v.pipe(v.boolean((i) => `must be true or false, got ${got(i.input)}`), v.description(description));

export const texts = (description: string) => v.pipe(v.array(v.string((i) => `must hold only strings, got ${got(i.input)}`), (i) => `must be a list of strings, got ${got(i.input)}`), v.description(description));

/** A whole number in [min, max]; one message for every way a value misses ("a whole number from 1 to 10, got 11"). */
export const whole = (description: string, min: number, max = Number.MAX_SAFE_INTEGER) => {
  const range = max === Number.MAX_SAFE_INTEGER ? (min === 1 ? 'a positive whole number' : `a whole number of at least ${min}`) : `a whole number from ${min} to ${max}`;
  const message = (issue: { input: unknown }) => `must be ${range}, got ${typeof issue.input === 'number' ? issue.input : got(issue.input)}`;
  return v.pipe(v.number(message), v.integer(message), v.minValue(min, message), v.maxValue(max, message), v.description(description));
};

/** A token count: a positive whole number, or as text (25000, 25k, 1m; a budget also P%). Checked by the operation's resolver. */
export const tokenSize = (description: string) =>
  v.pipe(v.union([v.number(), v.string()], (i) => `must be a number of tokens or a string such as "25k", got ${got(i.input)}`), v.description(description));

/** One of a fixed list; a refusal lists them, with a "did you mean" in its hint when the value is close to one (parseInput). */
export function choice<const T extends string>(allowed: readonly T[], description: string) {
  return v.pipe(
    v.picklist(allowed, (issue) => `must be one of ${allowed.join(', ')}, got ${got(issue.input)}`),
    v.description(description),
  );
}

/** The allowed values of the picklist at `keys` inside an object schema (optional fields unwrapped). */
function allowedAt(schema: v.GenericSchema, keys: string[]): readonly string[] {
  type Node = { type?: string; wrapped?: Node; entries?: Record<string, Node>; options?: readonly string[] } | undefined;
  const unwrap = (node: Node): Node => (node?.type === 'optional' ? unwrap(node.wrapped) : node);
  let node = unwrap(schema);
  for (const key of keys) node = unwrap(node?.entries?.[key]);
  return node?.options ?? [];
}

/** A number typed on the command line as the number, for the schema; anything else as typed, for its message. */
const typedNumber = (value: unknown) => (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value);

/**
 * Commander's flags as an operation's raw input: camelCase keys in snake_case, unset flags left out,
 * and the keys in `numbers` (whole-number fields) typed as numbers when they look like one.
 */
export function fromFlags(flags: Record<string, unknown>, numbers: readonly string[] = []): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(flags)) {
    if (value === undefined) continue;
    const key = name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    input[key] = numbers.includes(key) ? typedNumber(value) : value;
  }
  return input;
}

/** Validate an operation's input; the first problem is a usage error naming the field as `label` spells it. */
export function parseInput<S extends v.GenericSchema>(schema: S, input: unknown, label: Label): v.InferOutput<S> {
  const result = v.safeParse(schema, input, { abortEarly: true });
  if (result.success) return result.output;
  const issue = result.issues[0];
  // A bad item names its list (`focus`, not `focus.1`).
  const key = issue.path?.filter((p) => p.type !== 'array').map((p) => String(p.key)).join('.') ?? '';
  // A required key left out (strict objects report it as a key issue): say which, not "unknown".
  if (issue.type === 'strict_object' && issue.expected !== 'never' && issue.received === 'undefined') {
    const entry = (schema as { entries?: Record<string, v.GenericSchema> }).entries?.[key];
    const about = entry ? v.getDescription(entry) : undefined;
    throw new MemctxError(`missing ${label === CLI_LABEL ? 'option' : 'argument'} ${label(key)}`, { hint: about ? `${label(key)}: ${about}` : `give ${label(key)}` });
  }
  if (issue.type === 'strict_object' || (issue.kind === 'schema' && issue.expected === 'never')) {
    const known = knownKeys(schema);
    throw new MemctxError(`unknown ${label === CLI_LABEL ? 'option' : 'argument'} ${label(key)}`, { hint: known.length ? `known: ${known.map(label).join(', ')}` : 'it takes none' });
  }
  if (issue.type === 'object' && key === '') throw new MemctxError(`the arguments must be an object, got ${got(issue.input)}`);
  throw new MemctxError(`${label(key)} ${issue.message}`, { hint: hintFor(issue, schema, label) });
}

/** What to do about a refused value: leave an empty one out, or the closest allowed value, as the door spells it. */
function hintFor(issue: v.BaseIssue<unknown>, schema: v.GenericSchema, label: Label): string | undefined {
  const keys = issue.path?.map((p) => String(p.key)) ?? [];
  const key = keys.join('.');
  if (issue.message.startsWith('is empty')) return `give a few words, or leave ${label(key)} out`;
  if (issue.type !== 'picklist' || typeof issue.input !== 'string') return undefined;
  const guess = closestMatch(issue.input.trim(), allowedAt(schema, keys));
  if (guess === undefined) return undefined;
  return `did you mean ${label === CLI_LABEL ? `${label(key)} ${guess}` : `${label(key)} "${guess}"`}?`;
}

function knownKeys(schema: v.GenericSchema): string[] {
  const entries = (schema as { entries?: Record<string, unknown> }).entries;
  return entries ? Object.keys(entries) : [];
}

/**
 * The `type` and `kind` filters of ls and search: the built-in values, `other`, and any value a scanned
 * file uses (case ignored); anything else is a usage error with a "did you mean", never an empty list.
 * A check on the scanned files, so it runs after the schema, naming the field as `label` spells it.
 */
export function checkListFilters(filters: { type?: string; kind?: string }, files: readonly { type?: string; kind?: string }[], label: Label = CLI_LABEL): void {
  const seen = (key: 'type' | 'kind') => files.map((f) => f[key]).filter((value): value is string => typeof value === 'string');
  const unique = (values: string[]) => [...new Set(values)];
  checkFilter(label('type'), filters.type, unique([...MEMORY_TYPES, 'other', ...seen('type')]), label);
  checkFilter(label('kind'), filters.kind, unique([...MEMORY_KINDS, ...seen('kind')]), label);
}

function checkFilter(option: string, value: string | undefined, allowed: readonly string[], label: Label): void {
  if (value === undefined || allowed.some((a) => a.toLowerCase() === value.trim().toLowerCase())) return;
  const guess = closestMatch(value.trim(), allowed);
  const spell = (choice: string) => (label === CLI_LABEL ? `${option} ${choice}` : `${option} "${choice}"`);
  throw new MemctxError(`${option} must be one of ${allowed.join(', ')}, got "${value}"`, {
    hint: guess !== undefined ? `did you mean ${spell(guess)}?` : `use one of: ${allowed.map(spell).join(', ')}`,
  });
}
