/**
 * Bundle renderers. Every piece a renderer returns ends with "\n" and starts with a character
 * that is neither whitespace nor `/`, so the bundle's token count is the sum of its pieces' counts
 * (see src/kernel/tokens/join.ts); a file's own text is one piece, counted once and cached.
 */
import { codePath, fenceFor, inlineMarkdown, neutralizeControls } from '../markdown/escape.js';
import { MAX_DESCRIPTION_CHARS } from '../memindex/render.js';
import { assembleFile } from '../store/serialize.js';
import { shellWord } from '../text/shell.js';
import type { MemoryFile } from '../store/types.js';
import { DRIFT_PENALTY, type FileScore } from '../rank/score.js';
import type { PackFile } from '../rank/types.js';
import { fileTime } from '../lifecycle/age.js';
import { isoDay } from '../dates.js';

export const FORMATS = ['markdown', 'xml', 'json'] as const;
export type BundleFormat = (typeof FORMATS)[number];

export type SectionId = 'index' | 'full' | 'passages' | 'description';

/** Part of a file given in a bundle: its lines (1-based, in the file as on disk) and their text. */
interface PassagePiece {
  start: number;
  end: number;
  text: string;
}

export interface LeftOut {
  /** Files that should have had a line (full or description) but did not fit. */
  files: number;
  /** Index lines that did not fit. */
  indexLines: number;
}

interface BundleMeta {
  budget: number;
  encoding: string;
}

export interface Renderer {
  header(meta: BundleMeta): string;
  trailer(): string;
  /** Sections sharing a key share one opener/closer (JSON keeps every file in one array). */
  sectionKey(section: SectionId): string;
  open(section: SectionId): string;
  close(section: SectionId): string;
  /** One index line (from MEMORY.md's generated block; blank lines already folded in). */
  indexLine(line: string, first: boolean): string[];
  full(file: PackFile, score: FileScore, text: string, first: boolean): string[];
  /** The UTF-8 bytes a text adds to any file's full piece: full(file, score, text) less full(file, score, ''). */
  fullTextBytes(text: string): number;
  /** A passage of a file too large for its share of the budget, with the command that loads the whole file and the file's day. */
  passage(file: PackFile, passage: PassagePiece, first: boolean, memctx?: string): string[];
  /** `memctx` is the command prefix load hints use (`memctx --dir PATH`, `memctx --claude`). */
  description(file: PackFile, score: FileScore, first: boolean, memctx?: string): string[];
  leftOut(left: LeftOut, budget: number, memctx?: string): string;
}

/** The file as it is on disk (BOM dropped, line endings as LF), ending with one newline. */
export function fileText(file: Pick<MemoryFile, 'hasFrontmatter' | 'frontmatter' | 'body'>): string {
  const text = assembleFile(file.hasFrontmatter ? file.frontmatter : undefined, file.body, { bom: false, eol: '\n' });
  return neutralizeControls(text.endsWith('\n') ? text : `${text}\n`);
}

export function showCommand(path: string, memctx = 'memctx'): string {
  return `${memctx} show ${shellWord(path)}`;
}

/** "line 12" or "lines 12-14". */
const lineRange = (p: { start: number; end: number }) => (p.start === p.end ? `line ${p.start}` : `lines ${p.start}-${p.end}`);

/**
 * The day a passage's file is from (`updated`, else `created`, else its last commit; not its mtime,
 * which a clone resets): a passage leaves out the frontmatter that dates it.
 */
function passageDate(file: PackFile): { key: string; day: string } | undefined {
  const time = fileTime(file);
  if (time.source === 'mtime') return undefined;
  return { key: time.source === 'git' ? 'committed' : time.source, day: isoDay(time.ms) };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function leftOutSentence(left: LeftOut, budget: number, memctx = 'memctx'): string {
  const parts = [];
  if (left.files) parts.push(plural(left.files, 'file summary', 'file summaries'));
  if (left.indexLines) parts.push(plural(left.indexLines, 'index line'));
  return `Left out to stay within ${budget} tokens: ${parts.join(' and ')}. List every file with \`${memctx} ls\`; load one with \`${memctx} show PATH\`.`;
}

const scoreLine = (s: FileScore) => `${s.task > 0 ? `task ${s.task.toFixed(2)}, ` : ''}score ${s.score} (relevance ${s.relevance}, recency ${s.recency}, dependency ${s.dependency}${s.drifted ? `, drifted -${DRIFT_PENALTY}` : ''})`;
/** What a description line says of a superseded file. */
const supersededMark = (s: FileScore) => (s.superseded ? ` [superseded: ${s.superseded}]` : '') + (s.drifted ? ` [${s.drifted}]` : '');
/** The one line of warning above a drifted file's text. */
const driftLine = (s: FileScore) => (s.drifted ? `> ⚠ ${inlineMarkdown(s.drifted)}\n\n` : '');

// Every section opens with a blank line and each block ends with one newline, so headings and
// lists are set apart by exactly one blank line (markdownlint's defaults) whatever is left out.
const markdown: Renderer = {
  header: () => '# Memory bundle\n',
  trailer: () => '',
  sectionKey: (section) => section,
  open: (section) => ({ index: '\n## Index\n\n', full: '\n## Files in full\n', passages: '\n## Passages of larger files\n', description: '\n## More files (load on demand)\n\n' })[section],
  close: () => '',
  indexLine: (line, first) => [line.startsWith('## ') ? `${first ? '' : '\n'}#${line}\n\n` : `${line}\n`],
  full(file, score, text) {
    const marks = fenceFor(text);
    const meta = [file.type ?? 'other', file.kind, scoreLine(score)].filter(Boolean).join(' · ');
    return [`\n### ${inlineMarkdown(file.path)}\n\n${meta}\n\n${driftLine(score)}${marks}markdown\n`, text, `${marks}\n`];
  },
  // The text, and its fence twice where it is longer than an empty text's (three backticks).
  fullTextBytes: (text) => Buffer.byteLength(text, 'utf8') + 2 * (fenceFor(text).length - 3),
  // Headed by the command that loads the whole file (its path in it), the lines and the file's day.
  passage(file, passage, _first, memctx) {
    const text = `${passage.text}\n`;
    const marks = fenceFor(text);
    const date = passageDate(file);
    return [`\n### \`${showCommand(file.path, memctx)}\`, ${lineRange(passage)}${date ? ` (${date.key} ${date.day})` : ''}\n\n${marks}markdown\n`, text, `${marks}\n`];
  },
  description(file, score, _first, memctx) {
    const what = inlineMarkdown(file.description || file.name, MAX_DESCRIPTION_CHARS);
    return [`- \`${codePath(file.path)}\` — ${what}${supersededMark(score)} (score ${score.score}; load: \`${showCommand(file.path, memctx)}\`)\n`];
  },
  leftOut: (left, budget, memctx) => `\n## Left out\n\n${leftOutSentence(left, budget, memctx)}\n`,
};

const escapeText = (text: string) => neutralizeControls(text).replace(/&/g, '&amp;').replace(/</g, '&lt;');
const escapeAttr = (text: string) => escapeText(text).replace(/"/g, '&quot;').replace(/\n/g, '&#10;');

function attributes(file: PackFile, score: FileScore, tier: string): string {
  const attrs: [string, string | number | undefined][] = [
    ['path', file.path], ['name', file.name], ['type', file.type ?? 'other'], ['kind', file.kind], ['score', score.score], ['tier', tier], ['drifted', score.drifted],
  ];
  return attrs.filter(([, v]) => v !== undefined).map(([k, v]) => `${k}="${escapeAttr(String(v))}"`).join(' ');
}

const xml: Renderer = {
  header: (meta) => `<memory-bundle encoding="${escapeAttr(meta.encoding)}" budget="${meta.budget}">\n`,
  trailer: () => '</memory-bundle>\n',
  sectionKey: (section) => section,
  open: (section) => (section === 'index' ? '<index>\n' : ''),
  close: (section) => (section === 'index' ? '</index>\n' : ''),
  indexLine: (line) => [`${escapeText(line)}\n`],
  full(file, score, text) {
    const body = escapeText(text);
    return [`<memory ${attributes(file, score, 'full')}>\n`, body, '</memory>\n'];
  },
  fullTextBytes: (text) => Buffer.byteLength(escapeText(text), 'utf8'),
  passage(file, passage, _first, memctx) {
    const date = passageDate(file);
    const attrs = `path="${escapeAttr(file.path)}" lines="${passage.start}-${passage.end}"${date ? ` ${date.key}="${date.day}"` : ''} load="${escapeAttr(showCommand(file.path, memctx))}"`;
    return [`<passage ${attrs}>\n`, `${escapeText(passage.text)}\n`, '</passage>\n'];
  },
  description(file, score, _first, memctx) {
    const load = `load="${escapeAttr(showCommand(file.path, memctx))}"`;
    return [`<memory ${attributes(file, score, 'description')} ${load}>${escapeText((file.description || file.name) + supersededMark(score))}</memory>\n`];
  },
  leftOut: (left, budget, memctx) => `<left-out files="${left.files}" index-lines="${left.indexLines}">${escapeText(leftOutSentence(left, budget, memctx))}</left-out>\n`,
};

function jsonFile(file: PackFile, score: FileScore, tier: string): Record<string, unknown> {
  return { path: file.path, name: file.name, type: file.type ?? 'other', kind: file.kind ?? null, score: score.score, tier, ...(score.drifted ? { drifted: score.drifted } : {}) };
}

const jsonDate = (date: { key: string; day: string } | undefined) => (date ? { [date.key]: date.day } : {});

const json: Renderer = {
  header: (meta) => `{"bundle":"memctx","encoding":${JSON.stringify(meta.encoding)},"budget":${meta.budget}\n`,
  trailer: () => '}\n',
  sectionKey: (section) => (section === 'index' ? 'index' : 'files'),
  open: (section) => (section === 'index' ? ',"index":[\n' : ',"files":[\n'),
  close: () => ']\n',
  indexLine: (line, first) => [`${first ? '' : ','}${JSON.stringify(line)}\n`],
  full: (file, score, text, first) => [`${first ? '' : ','}${JSON.stringify({ ...jsonFile(file, score, 'full'), content: text })}\n`],
  // The content is the object's last value: its string less an empty one's quotes.
  fullTextBytes: (text) => Buffer.byteLength(JSON.stringify(text), 'utf8') - 2,
  passage: (file, passage, first, memctx) => [
    `${first ? '' : ','}${JSON.stringify({ path: file.path, tier: 'passage', lines: [passage.start, passage.end], ...jsonDate(passageDate(file)), load: showCommand(file.path, memctx), content: `${passage.text}\n` })}\n`,
  ],
  description: (file, score, first, memctx) => [
    `${first ? '' : ','}${JSON.stringify({ ...jsonFile(file, score, 'description'), description: file.description || file.name, load: showCommand(file.path, memctx), ...(score.superseded ? { superseded: score.superseded } : {}) })}\n`,
  ],
  leftOut: (left, budget, memctx) => `,"leftOut":${JSON.stringify({ files: left.files, indexLines: left.indexLines, note: leftOutSentence(left, budget, memctx) })}\n`,
};

export const RENDERERS: Record<BundleFormat, Renderer> = { markdown, xml, json };
