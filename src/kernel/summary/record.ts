/**
 * Plan a flush: resolve the merged inputs against a template, apply the 50-line rule, render the
 * file, count it exactly and shorten it when it is over the maximum. Pure: time, token counter and
 * inputs are passed in.
 */
import { assembleFile, newFrontmatter } from '../store/serialize.js';
import { isoTimestamp } from '../store/schema.js';
import { summarizeBlock } from './blocks.js';
import { emptyValues, normalizeKey, type FieldValues } from './fields.js';
import { NONE_RECORDED, renderBody, type SpecialValues } from './render.js';
import { describeCut, shortenToFit, type Cut } from './shorten.js';
import { changedGroupLevels, groupChangedLines } from './changed.js';
import type { Template } from './templates.js';
import { DEFAULT_MAX, DEFAULT_TARGET } from './limits.js';

const MAX_DESCRIPTION = 160;
const MAX_SLUG = 48;

interface Counter {
  count(text: string): number;
}

export interface ResolvedFields {
  /** Values keyed by the template's fields (aliases folded in). */
  values: FieldValues;
  /** Input keys no template field takes, with the sources that gave them. */
  unused: { key: string; sources: string[] }[];
  /** Placeholders that must have a value and have none. */
  missing: string[];
}

/** Fold merged input values into the template's fields. `sourcesOf` names where each key came from. */
export function resolveFields(template: Template, merged: FieldValues, sourcesOf: (key: string) => string[] = () => []): ResolvedFields {
  const values = emptyValues();
  const used = new Set<string>();
  for (const field of template.fields) {
    const items: string[] = [];
    for (const key of [field.key, ...(field.aliases ?? [])]) {
      if (!merged[key]?.length) continue;
      used.add(key);
      for (const item of merged[key]) if (!items.includes(item)) items.push(item);
    }
    values[field.key] = items;
  }
  const unused = Object.keys(merged)
    .filter((key) => !used.has(key) && merged[key].length > 0)
    .map((key) => ({ key, sources: sourcesOf(key) }));
  const missing = template.fields.filter((f) => !template.reflected.has(f.key) && values[f.key].length === 0).map((f) => f.key);
  return { values, unused, missing };
}

export interface PlanInput {
  template: Template;
  /** Values keyed by the template's fields (see resolveFields). */
  values: FieldValues;
  now: Date;
  counter: Counter;
  target?: number;
  max?: number;
  /** Refuse instead of shortening: the plan keeps every value and reports `overMax`. */
  strict?: boolean;
  sessionId?: string;
  /** What the session's transcript says of it: the agent, its model, the first and last timed lines. */
  session?: SessionMeta;
  /** Extra frontmatter (e.g. `hook_event`), written after the standard keys. */
  extra?: Record<string, unknown>;
  /** The decision ID when the template names files by it (a placeholder is used until it is known). */
  id?: string;
  /** Keep this `created` (a hook run replacing its own earlier file). */
  created?: string;
}

/** A session file's record of its session (frontmatter `agent`, `model`, `started`, `ended`). */
export interface SessionMeta {
  agent?: string;
  model?: string;
  /** ISO date-times. */
  started?: string;
  ended?: string;
}

export interface FlushPlan {
  template: Template;
  values: FieldValues;
  frontmatter: Record<string, unknown>;
  text: string;
  /** Exact tokens of the file as planned. */
  tokens: number;
  /** Tokens before shortening. */
  originalTokens: number;
  target: number;
  max: number;
  /** Over the maximum and not shortened (strict), or still over after shortening. */
  overMax: boolean;
  cuts: Cut[];
  /** Cuts as lines for the user. */
  cutLines: string[];
  /** Headings of the fields written as `none recorded`. */
  empty: string[];
  /** Fields whose long blocks were summarized by the 50-line rule. */
  summarized: { field: string; total: number; omitted: number }[];
  slug: string;
  /** `2026-11-21T153012`, the file name's timestamp. */
  stamp: string;
}

/** `2026-11-21T153012` (UTC). */
export function fileStamp(now: Date): string {
  return isoTimestamp(now).replace(/:/g, '').replace(/Z$/, '');
}

/** A file-name slug from text: lower-case ASCII words joined with `-`, at most MAX_SLUG characters. */
export function slugify(text: string, fallback: string): string {
  const words = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  let slug = '';
  for (const word of words) {
    const next = slug ? `${slug}-${word}` : word;
    if (next.length > MAX_SLUG) {
      if (!slug) slug = word.slice(0, MAX_SLUG);
      break;
    }
    slug = next;
  }
  return slug || fallback;
}

/** The first non-empty line of a field's first item, on one line, clipped. */
function firstLine(items: string[] | undefined): string | undefined {
  const line = items?.[0]?.split('\n').find((l) => l.trim() !== '');
  if (!line) return undefined;
  const clean = line.replace(/\s+/g, ' ').trim();
  return clean.length > MAX_DESCRIPTION ? `${clean.slice(0, MAX_DESCRIPTION - 1).trimEnd()}…` : clean;
}

/** One line for frontmatter: no line breaks, no control characters. */
function singleLine(value: string): string {
  return value.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').replace(/\s+/g, ' ').trim();
}

function humanTime(now: Date): string {
  return isoTimestamp(now).slice(0, 16).replace('T', ' ');
}

/** True when the file gets a decision ID: decision records, and any template with an {{id}} placeholder. */
export function usesId(template: Template): boolean {
  return template.naming === 'decision-id' || template.placeholders.some((p) => p.key === 'id');
}

/** The placeholder decision ID used for counting before the real one is known (same length). */
function placeholderId(now: Date): string {
  return `DEC-${isoTimestamp(now).slice(0, 10)}-000`;
}

/** The session's own keys (unset ones stay undefined, so that the template's data may fill them). */
function sessionKeys(input: PlanInput): Record<string, unknown> {
  const session = input.session;
  return {
    session_id: input.sessionId ? singleLine(input.sessionId) : undefined,
    agent: session?.agent ? singleLine(session.agent) : undefined,
    model: session?.model ? singleLine(session.model) : undefined,
    started: session?.started,
    ended: session?.ended,
  };
}

/** A decision's importance (1–10) and tags, when given. */
function addDecisionKeys(fm: Record<string, unknown>, values: FieldValues): void {
  const importance = Number(values.importance?.[0]);
  if (Number.isInteger(importance) && importance >= 1 && importance <= 10) fm.importance = importance;
  if (values.tags?.length) fm.tags = values.tags.flatMap((t) => t.split(',')).map((t) => singleLine(t)).filter(Boolean);
}

function frontmatterFor(input: PlanInput, values: FieldValues): Record<string, unknown> {
  const { template, now } = input;
  const timestamp = isoTimestamp(now);
  const described = template.describeBy ? firstLine(values[template.describeBy]) : undefined;
  const id = usesId(template) ? input.id ?? placeholderId(now) : undefined;
  const data = template.data;
  const fill = (value: unknown): unknown => (typeof value === 'string' ? singleLine(fillInline(value, values, { date: timestamp.slice(0, 10), timestamp, id })) : value);
  const name = typeof data.name === 'string' ? (fill(data.name) as string) : template.naming === 'decision-id' && id ? id : `${template.title} ${humanTime(now)}`;
  const description = typeof data.description === 'string' ? (fill(data.description) as string) : described ?? `${template.title || template.name} ${humanTime(now)}: ${NONE_RECORDED}`;
  const fm: Record<string, unknown> = {
    name: singleLine(name).slice(0, 100),
    description: singleLine(description),
    type: typeof data.type === 'string' ? data.type : 'project',
    kind: template.kind,
    id,
    created: input.created ?? timestamp,
    updated: timestamp,
    ...sessionKeys(input),
    // Another template's fields are not the session six: lint's session rules read this key.
    template: template.name === 'session' ? undefined : template.name,
  };
  if (template.kind === 'decision') addDecisionKeys(fm, values);
  for (const [key, value] of Object.entries({ ...data, ...input.extra })) {
    if (!(key in fm) || fm[key] === undefined) fm[key] = fill(value);
  }
  return fm;
}

function fillInline(text: string, values: FieldValues, special: SpecialValues): string {
  return text.replace(/\\?\{\{\s*([A-Za-z][A-Za-z0-9_-]*)\s*\}\}/g, (m, raw: string) => {
    if (m.startsWith('\\')) return m.slice(1);
    const key = normalizeKey(raw);
    if (key === 'date') return special.date;
    if (key === 'timestamp') return special.timestamp;
    if (key === 'id') return special.id ?? NONE_RECORDED;
    return values[key]?.map((v) => v.replace(/\s+/g, ' ')).join('; ') || NONE_RECORDED;
  });
}

/** The file's text for these values. `yamlCache` keeps serialized frontmatter across calls (shortening renders often). */
export function renderFlushFile(input: PlanInput, values: FieldValues, yamlCache?: Map<string, string>): { text: string; frontmatter: Record<string, unknown> } {
  const frontmatter = frontmatterFor(input, values);
  const timestamp = frontmatter.updated as string;
  const body = renderBody(input.template, values, { date: timestamp.slice(0, 10), timestamp, id: frontmatter.id as string | undefined });
  const key = yamlCache ? JSON.stringify(frontmatter) : '';
  let yaml = yamlCache?.get(key);
  if (yaml === undefined) {
    yaml = newFrontmatter(frontmatter);
    yamlCache?.set(key, yaml);
  }
  return { frontmatter, text: assembleFile(yaml, `\n${body.replace(/\n*$/, '\n')}`, { bom: false, eol: '\n' }) };
}

/** Apply the 50-line rule to every item. */
function summarizeBlocks(values: FieldValues): { values: FieldValues; summarized: FlushPlan['summarized'] } {
  const out = emptyValues();
  const summarized: FlushPlan['summarized'] = [];
  for (const [key, items] of Object.entries(values)) {
    out[key] = items.map((item) => {
      const block = summarizeBlock(item);
      if (block.omitted) summarized.push({ field: key, total: block.total, omitted: block.omitted });
      return block.text;
    });
  }
  return { values: out, summarized };
}

/** The heading a template gives a field (the key itself when the template has no such field). */
export function headingOf(template: Template, key: string): string {
  return template.fields.find((f) => f.key === key)?.heading ?? key;
}

/** Plan the file: the 50-line rule, exact count, and shortening to the target when over the maximum. */
export function planFlush(input: PlanInput): FlushPlan {
  const target = input.target ?? DEFAULT_TARGET;
  const max = input.max ?? DEFAULT_MAX;
  const { template } = input;
  const blocks = summarizeBlocks(input.values);
  const yamlCache = new Map<string, string>();
  const measure = (values: FieldValues) => input.counter.count(renderFlushFile(input, values, yamlCache).text);
  const first = renderFlushFile(input, blocks.values, yamlCache);
  const originalTokens = input.counter.count(first.text);
  let values = blocks.values;
  let tokens = originalTokens;
  let cuts: Cut[] = [];
  if (originalTokens > max && !input.strict) {
    // Changed Files group by folder and Decisions stay whole before any item is dropped
    const shortened = shortenToFit(blocks.values, template.cutOrder, measure, target, { group: { changedFiles: { levels: changedGroupLevels, apply: groupChangedLines } }, whole: ['decisions'] });
    values = shortened.values;
    tokens = shortened.tokens;
    cuts = shortened.cuts;
  }
  // Not shortened: the file as first rendered.
  const { text, frontmatter } = values === blocks.values ? first : renderFlushFile(input, values);
  const empty = template.fields.filter((f) => template.reflected.has(f.key) && !(values[f.key]?.length)).map((f) => f.heading);
  const slugSource = template.describeBy ? firstLine(values[template.describeBy]) ?? '' : '';
  return {
    template,
    values,
    frontmatter,
    text,
    tokens,
    originalTokens,
    target,
    max,
    overMax: tokens > max,
    cuts,
    cutLines: cuts.map((c) => describeCut(c, headingOf(template, c.field))),
    empty,
    summarized: blocks.summarized,
    slug: slugify(slugSource, template.name === 'decision' ? 'decision' : template.kind === 'session' ? 'session' : template.name.toLowerCase()),
    stamp: fileStamp(input.now),
  };
}

/** The file's path inside the memory directory, before any `-2` suffix for a taken name. */
export function plannedPath(plan: FlushPlan, id?: string): string {
  const base = plan.template.naming === 'decision-id' && id ? `${id}-${plan.slug}` : `${plan.stamp}-${plan.slug}`;
  return `${plan.template.dir}/${base}.md`;
}
