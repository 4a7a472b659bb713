/**
 * Render field values into a template body, and read them back. Values are escaped so that no value,
 * whatever it holds (`---`, `## Goal`, frontmatter-like lines), changes the file's structure.
 */
import { escapeHtmlStart, neutralizeControls, unescapeHtmlStart } from '../markdown/escape.js';
import { emptyValues, normalizeKey, type FieldValues } from './fields.js';
import type { FieldSpec, FieldStyle, Template } from './templates.js';

export const NONE_RECORDED = 'none recorded';

/** Placeholder values memctx fills itself. */
export interface SpecialValues {
  date: string;
  timestamp: string;
  id?: string;
}

/** Lines of a text paragraph that could be read as Markdown structure get a backslash. */
function escapeTextLine(line: string): string {
  return /^[\\#*+>-]/.test(line) || line === NONE_RECORDED ? `\\${line}` : line;
}

function unescapeTextLine(line: string): string {
  return line.startsWith('\\') ? line.slice(1) : line;
}

function listItem(item: string): string[] {
  const [first, ...rest] = item.split('\n');
  return [`- ${first}`, ...rest.map((line) => (line === '' ? '' : `  ${line}`))];
}

function oneLine(item: string): string {
  return item.replace(/\s+/g, ' ').trim();
}

/** A block placeholder's lines for these items. */
/** A value's text with control characters made visible and no `<` that could open HTML or a comment. */
function safeItem(item: string): string {
  return escapeHtmlStart(neutralizeControls(item.replace(/\r\n?/g, '\n')));
}

function renderBlock(values: string[], style: FieldStyle): string[] {
  if (values.length === 0) return [NONE_RECORDED];
  const items = values.map(safeItem);
  if (style === 'inline') return [escapeTextLine(items.map(oneLine).join(', '))];
  if (style === 'text' && items.length === 1) return items[0].split('\n').map(escapeTextLine);
  return items.flatMap(listItem);
}

/** An inline placeholder's text: items on one line, joined with "; ". */
function renderInline(items: string[]): string {
  return items.length === 0 ? NONE_RECORDED : items.map((item) => oneLine(safeItem(item))).join('; ');
}

const PLACEHOLDER = /(\\?)\{\{\s*([A-Za-z][A-Za-z0-9_-]*)\s*\}\}/g;

function specialValue(key: string, special: SpecialValues): string | undefined {
  if (key === 'date') return special.date;
  if (key === 'timestamp') return special.timestamp;
  if (key === 'id') return special.id ?? NONE_RECORDED;
  return undefined;
}

function styleOf(template: Template, key: string): FieldSpec['style'] {
  return template.fields.find((f) => f.key === key)?.style ?? 'list';
}

/** The template body with every placeholder replaced. Values are keyed by the template's fields. */
export function renderBody(template: Template, values: FieldValues, special: SpecialValues): string {
  const out: string[] = [];
  for (const line of template.body.split('\n')) {
    const block = /^(\s*)\{\{\s*([A-Za-z][A-Za-z0-9_-]*)\s*\}\}\s*$/.exec(line);
    if (block) {
      const key = normalizeKey(block[2]);
      const fixed = specialValue(key, special);
      const lines = fixed !== undefined ? [fixed] : renderBlock(values[key] ?? [], styleOf(template, key));
      out.push(...lines.map((l) => (l === '' ? '' : block[1] + l)));
      continue;
    }
    out.push(
      line.replace(PLACEHOLDER, (_m, escaped: string, raw: string) => {
        if (escaped) return `{{${raw}}}`;
        const key = normalizeKey(raw);
        return specialValue(key, special) ?? renderInline(values[key] ?? []);
      }),
    );
  }
  return out.join('\n');
}

function parseList(lines: string[]): string[] {
  const items: string[][] = [];
  let pendingBlank = 0;
  for (const line of lines) {
    if (line.startsWith('- ')) {
      items.push([line.slice(2)]);
      pendingBlank = 0;
    } else if (line === '') {
      pendingBlank++;
    } else if (items.length) {
      const current = items[items.length - 1];
      for (; pendingBlank > 0; pendingBlank--) current.push('');
      current.push(line.startsWith('  ') ? line.slice(2) : line);
    }
  }
  return items.map((l) => l.join('\n'));
}

function trimBlankLines(lines: string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start].trim() === '') start++;
  while (end > start && lines[end - 1].trim() === '') end--;
  return lines.slice(start, end);
}

/** A block's lines back into items. */
function parseBlock(lines: string[], style: FieldStyle): string[] {
  return parseEscapedBlock(lines, style).map(unescapeHtmlStart);
}

function parseEscapedBlock(lines: string[], style: FieldStyle): string[] {
  const content = trimBlankLines(lines);
  if (content.length === 0 || (content.length === 1 && content[0] === NONE_RECORDED)) return [];
  if (style === 'inline') return unescapeTextLine(content.join(' ')).split(', ').map((s) => s.trim()).filter(Boolean);
  if (style === 'list' || content[0].startsWith('- ')) return parseList(content);
  return [content.map(unescapeTextLine).join('\n')];
}

/**
 * Read a body written from this template back into field values. Works for templates whose block
 * placeholders are each followed by a literal line (a heading) or the end: all the built-ins.
 */
export function parseBody(template: Template, body: string): FieldValues {
  const tLines = template.body.split('\n');
  const bLines = body.replace(/\r\n/g, '\n').split('\n');
  const values = emptyValues();
  let bi = 0;
  while (bi < bLines.length && bLines[bi].trim() === '') bi++;
  for (let ti = 0; ti < tLines.length; ti++) {
    const block = /^\s*\{\{\s*([A-Za-z][A-Za-z0-9_-]*)\s*\}\}\s*$/.exec(tLines[ti]);
    if (!block) {
      if (tLines[ti].trim() === '') {
        if (bLines[bi]?.trim() === '') bi++;
      } else {
        const at = bLines.indexOf(tLines[ti], bi);
        if (at !== -1) bi = at + 1;
      }
      continue;
    }
    const key = normalizeKey(block[1]);
    let next: string | undefined;
    for (let tj = ti + 1; tj < tLines.length; tj++) {
      if (tLines[tj].trim() !== '' && !/\{\{/.test(tLines[tj])) {
        next = tLines[tj];
        break;
      }
    }
    const end = next === undefined ? bLines.length : bLines.indexOf(next, bi);
    const stop = end === -1 ? bLines.length : end;
    if (!['date', 'timestamp', 'id'].includes(key)) values[key] = parseBlock(bLines.slice(bi, stop), styleOf(template, key));
    bi = stop;
  }
  return values;
}
