/**
 * Flush templates: Markdown with `{{field}}` placeholders. A placeholder alone on its line is a block
 * (a paragraph or a list); one inside a line is inline (items joined with "; ").
 */
import { MemctxError } from '../errors.js';
import { normalizeKey } from './fields.js';

/** `text`: one paragraph per item; `list`: `- item`; `inline`: items joined with ", ". */
export type FieldStyle = 'text' | 'list' | 'inline';

export interface FieldSpec {
  key: string;
  /** The heading the built-in templates give the field. */
  heading: string;
  style: FieldStyle;
  /** Other input keys whose values also fill this field (`decisions` fills the decision template's `decision`). */
  aliases?: string[];
}

/** Placeholders every template may use, filled by memctx: never "no value". */
const SPECIAL_PLACEHOLDERS = ['date', 'timestamp', 'id'] as const;

export interface Placeholder {
  key: string;
  /** 1-based line in the template body. */
  line: number;
  block: boolean;
}

export interface Template {
  name: string;
  /** 'built-in', or the template file's path relative to the memory directory. */
  origin: string;
  /** Frontmatter keys to copy into the written file (user templates). */
  data: Record<string, unknown>;
  body: string;
  placeholders: Placeholder[];
  /** The fields the template fills, in order of first use; specials excluded. */
  fields: FieldSpec[];
  /** Fields an empty value writes as `none recorded` (others must be given). */
  reflected: Set<string>;
  /** Where the file goes, relative to the memory directory. */
  dir: string;
  kind: string;
  /** The field whose first line becomes the description and the file name's slug. */
  describeBy?: string;
  /** Shortening takes from these fields first. */
  cutOrder: string[];
  /** How the file is named: a session timestamp, or the decision ID. */
  naming: 'timestamp' | 'decision-id';
  /** The `name` frontmatter prefix. */
  title: string;
}

export class TemplateError extends MemctxError {
  declare readonly hint: string;
  constructor(message: string, line: number | undefined, hint: string) {
    super(message, { line, hint });
    this.name = 'TemplateError';
  }
}

const SESSION_SPECS: FieldSpec[] = [
  { key: 'goal', heading: 'Goal', style: 'text' },
  { key: 'progress', heading: 'Progress', style: 'list' },
  { key: 'decisions', heading: 'Decisions', style: 'list' },
  { key: 'changedFiles', heading: 'Changed Files', style: 'list' },
  { key: 'blockers', heading: 'Blockers', style: 'list' },
  { key: 'nextSteps', heading: 'Next Steps', style: 'list' },
];

const DECISION_SPECS: FieldSpec[] = [
  { key: 'decision', heading: 'Decision', style: 'text', aliases: ['decisions'] },
  { key: 'rationale', heading: 'Rationale', style: 'text' },
  { key: 'alternatives', heading: 'Alternatives Considered', style: 'list' },
  { key: 'impact', heading: 'Expected Impact', style: 'list' },
  { key: 'validation', heading: 'Validation Criteria', style: 'list' },
  { key: 'context', heading: 'Context', style: 'text' },
  { key: 'tags', heading: 'Tags', style: 'inline' },
  { key: 'importance', heading: 'Importance', style: 'inline' },
];

const NOTES_SPECS: FieldSpec[] = [
  { key: 'currentState', heading: 'Current State', style: 'text' },
  { key: 'filesAndFunctions', heading: 'Files and Functions', style: 'list', aliases: ['changedFiles'] },
  { key: 'errorsAndCorrections', heading: 'Errors and Corrections', style: 'list' },
  { key: 'keyResults', heading: 'Key Results', style: 'list' },
  { key: 'worklog', heading: 'Worklog', style: 'list', aliases: ['progress'] },
];

/** Every field a built-in template knows: these get `none recorded` when empty, in any template. */
export const KNOWN_FIELDS = new Map<string, FieldSpec>([...SESSION_SPECS, ...DECISION_SPECS, ...NOTES_SPECS].map((s) => [s.key, s]));

function sectionsText(specs: FieldSpec[]): string {
  return specs.map((s) => `## ${s.heading}\n\n{{${s.key}}}\n`).join('\n');
}

/** The built-in templates' text, as a user template file would hold it. */
export const BUILT_IN_TEMPLATE_TEXT: Record<'session' | 'decision' | 'notes', string> = {
  session: sectionsText(SESSION_SPECS),
  decision: `**ID:** {{id}}\n\n${sectionsText(DECISION_SPECS)}`,
  notes: sectionsText(NOTES_SPECS),
};

export const BUILT_IN_TEMPLATES = Object.keys(BUILT_IN_TEMPLATE_TEXT) as (keyof typeof BUILT_IN_TEMPLATE_TEXT)[];

export function isBuiltInTemplate(name: string): name is keyof typeof BUILT_IN_TEMPLATE_TEXT {
  return Object.prototype.hasOwnProperty.call(BUILT_IN_TEMPLATE_TEXT, name);
}

/** Template names are file names: letters, digits, `-`, `_`, `.` inside. */
export function isTemplateName(name: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name) && !name.includes('..');
}

const PLACEHOLDER = /\\?\{\{([^{}]*)\}\}/g;

/** Find the placeholders of a template body; malformed ones are errors with their line. */
export function findPlaceholders(body: string): Placeholder[] {
  const found: Placeholder[] = [];
  const lines = body.split('\n');
  lines.forEach((text, i) => {
    for (const m of text.matchAll(PLACEHOLDER)) {
      if (m[0].startsWith('\\')) continue;
      const raw = m[1].trim();
      if (!/^[A-Za-z][A-Za-z0-9_-]*$/.test(raw)) {
        throw new TemplateError(`malformed placeholder \`${m[0]}\``, i + 1, 'placeholders are a field name in double braces, such as {{goal}} or {{next_steps}}; write \\{{ for literal braces');
      }
      found.push({ key: normalizeKey(raw), line: i + 1, block: text.trim() === m[0] });
    }
    const stray = text.replace(PLACEHOLDER, '');
    if (/\{\{/.test(stray.replace(/\\\{\{/g, ''))) {
      throw new TemplateError('`{{` is not closed on its line', i + 1, 'close the placeholder with }} on the same line, or write \\{{ for literal braces');
    }
  });
  return found;
}

function specFor(key: string, style: FieldStyle): FieldSpec {
  return KNOWN_FIELDS.get(key) ?? { key, heading: key, style };
}

function fieldsOf(placeholders: Placeholder[]): FieldSpec[] {
  const specs: FieldSpec[] = [];
  const seen = new Set<string>();
  for (const p of placeholders) {
    if ((SPECIAL_PLACEHOLDERS as readonly string[]).includes(p.key) || seen.has(p.key)) continue;
    seen.add(p.key);
    specs.push(specFor(p.key, p.block ? 'list' : 'inline'));
  }
  return specs;
}

/** One of the built-in templates. */
export function builtInTemplate(name: keyof typeof BUILT_IN_TEMPLATE_TEXT): Template {
  const body = BUILT_IN_TEMPLATE_TEXT[name];
  const placeholders = findPlaceholders(body);
  const fields = fieldsOf(placeholders);
  const common = { name, origin: 'built-in', data: {}, body, placeholders, fields, reflected: new Set(fields.map((f) => f.key)) };
  if (name === 'decision') {
    return { ...common, dir: 'decisions', kind: 'decision', describeBy: 'decision', naming: 'decision-id', title: '', cutOrder: ['context', 'validation', 'impact', 'alternatives', 'rationale', 'decision', 'tags'] };
  }
  if (name === 'notes') {
    return { ...common, dir: 'sessions', kind: 'session', describeBy: 'currentState', naming: 'timestamp', title: 'Session notes', cutOrder: ['worklog', 'filesAndFunctions', 'keyResults', 'errorsAndCorrections', 'currentState'] };
  }
  return { ...common, dir: 'sessions', kind: 'session', describeBy: 'goal', naming: 'timestamp', title: 'Session', cutOrder: ['progress', 'changedFiles', 'nextSteps', 'blockers', 'decisions', 'goal'] };
}

/**
 * A user template from `.memory/templates/NAME.md`: its body (placeholders checked) and frontmatter
 * data. Its known fields (those of the built-in templates) are written `none recorded` when empty;
 * any other placeholder must be given a value.
 */
export function userTemplate(name: string, origin: string, body: string, data: Record<string, unknown>): Template {
  const placeholders = findPlaceholders(body);
  const fields = fieldsOf(placeholders);
  const keys = fields.map((f) => f.key);
  const base = isBuiltInTemplate(name) ? builtInTemplate(name) : undefined;
  const kind = typeof data.kind === 'string' && data.kind.trim() ? data.kind.trim() : base?.kind ?? 'session';
  return {
    name,
    origin,
    data,
    body,
    placeholders,
    fields,
    reflected: new Set(keys.filter((k) => KNOWN_FIELDS.has(k))),
    dir: base?.dir ?? 'sessions',
    kind,
    describeBy: keys.includes('goal') ? 'goal' : base?.describeBy && keys.includes(base.describeBy) ? base.describeBy : keys[0],
    naming: base?.naming === 'decision-id' && placeholders.some((p) => p.key === 'id') ? 'decision-id' : 'timestamp',
    title: base?.title ?? name.charAt(0).toUpperCase() + name.slice(1),
    cutOrder: base ? [...base.cutOrder.filter((k) => keys.includes(k)), ...keys.filter((k) => !base.cutOrder.includes(k)).reverse()] : [...keys].reverse(),
  };
}
