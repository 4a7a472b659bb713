/**
 * Anthropic's memory tool (`memory_20250818`) over a memory directory: the six commands with their
 * argument names and answers, `/memories` mapped onto the directory. Every write goes through the
 * store (safe paths, lock, atomic write, frontmatter kept, `updated` set, MEMORY.md rebuilt).
 * The MCP server's `memory` tool and the library's handlers for the Anthropic SDK both call this.
 */
import { verifiedStamp } from '../../kernel/sources/history.js';
import { lstatSync, readdirSync, statSync, type Dirent } from 'node:fs';
import { basename, join } from 'node:path';
import { MemctxError } from '../../kernel/errors.js';
import { ARCHIVE_DIR, CACHE_DIR, MAX_FILE_BYTES, TEMPLATES_DIR } from '../../kernel/store/layout.js';
import { entryExists, isIndexPath, isInside, resolveMemoryPath } from '../../kernel/store/paths.js';
import { isoTimestamp } from '../../kernel/store/schema.js';
import type { MemoryFile } from '../../kernel/store/types.js';
import type { LintConfig } from '../../kernel/lint/types.js';
import { lineAt } from '../../kernel/lines.js';
import { MEMORY_COMMANDS, parseMemoryCommand } from './schema.js';
import { MEMORIES, MemoryToolError, memoryErrorText } from '../../kernel/memory-errors.js';
import { readRawText, finishEdit } from '../../kernel/store/edit.js';
import { DecodeFailure } from '../../kernel/store/decode.js';
import { redactSecrets } from '../../kernel/lint/secrets.js';
import { recordAccess } from '../../kernel/state/stats.js';
import { indexEntriesFor } from '../../kernel/state/scan-cache.js';
import { parseMemoryText, ParseFailure } from '../../kernel/store/parse.js';
import { lintSetup } from '../../kernel/lint/setup.js';
import { addedFrontmatterFindings } from '../../kernel/lint/check-new.js';
import { newFrontmatter, assembleFile, serializeMemoryFile } from '../../kernel/store/serialize.js';
import { writeMemoryFile, removeMemoryFile } from '../../kernel/store/write.js';
import { ALREADY_EXISTS, moveNoClobber } from '../../kernel/store/archive.js';
import { findDuplicate } from '../../kernel/lint/duplicates.js';
import { stampMoved } from '../../kernel/store/edit.js';
import { writeAndReindex } from '../../kernel/memindex/reindex.js';

export { MEMORIES, MemoryToolError };


export type MemoryCommand =
  | { command: 'view'; path: string; view_range?: number[] }
  | { command: 'create'; path: string; file_text: string; force?: boolean }
  | { command: 'str_replace'; path: string; old_str: string; new_str: string; force?: boolean }
  | { command: 'insert'; path: string; insert_line: number; insert_text: string }
  | { command: 'delete'; path: string }
  | { command: 'rename'; old_path: string; new_path: string };

export type MemoryCommandName = MemoryCommand['command'];
export { MEMORY_COMMANDS };

export interface MemoryToolDeps {
  now: () => Date;
  /** lint's configuration (the allowed types), for the frontmatter checks `add` makes; default: the memory directory's. */
  lintConfig?: () => LintConfig | Promise<LintConfig>;
}

/** Folders the tool may read but not change: memctx's archive and the flush templates. */
const READ_ONLY_DIRS = [ARCHIVE_DIR, TEMPLATES_DIR];

/** A directory view stops at about this much, then says what it left out. */
const VIEW_MAX_LINES = 2_000;
const VIEW_MAX_CHARS = 40_000;

const LINE_NUMBER_WIDTH = 6;

interface Target {
  /** The path as the model wrote it. */
  shown: string;
  /** Relative to the memory directory; '' for /memories itself. */
  rel: string;
  abs: string;
  /** The memory directory. */
  root: string;
}

/** Map a `/memories/...` path onto the memory directory, refusing anything that leaves it. */
function memoryTarget(root: string, input: unknown): Target {
  if (typeof input !== 'string' || input === '') throw new MemoryToolError('path must be a non-empty string starting with /memories');
  if (input !== MEMORIES && !input.startsWith(`${MEMORIES}/`)) throw new MemoryToolError(`Path must start with /memories, got: ${input.replace(/\0/g, '\\0')}`);
  const rest = input.slice(MEMORIES.length + 1).replace(/\/+$/, '');
  if (rest === '') return { shown: MEMORIES, rel: '', abs: root, root };
  let safe;
  try {
    safe = resolveMemoryPath(root, rest, { addExtension: false });
  } catch (err) {
    if (!(err instanceof MemctxError)) throw err;
    throw new MemoryToolError(`Path ${input.replace(/\0/g, '\\0')} would escape /memories directory: ${err.message.replace(/^path "[^"]*" /, '')}`);
  }
  if (safe.rel.split('/').some((part) => part.startsWith('.'))) {
    throw new MemoryToolError(`Path ${input} is hidden; ${CACHE_DIR}/ and other dot-paths belong to memctx, not to memories`);
  }
  return { shown: `${MEMORIES}/${safe.rel}`, rel: safe.rel, abs: safe.abs, root };
}

function missing(target: Target): MemoryToolError {
  return new MemoryToolError(`The path ${target.shown} does not exist. Please provide a valid path.`);
}

function refuseIndex(target: Target, what: string): void {
  if (isIndexPath(target.rel)) {
    throw new MemoryToolError(`${target.shown} is the index memctx rebuilds after every change; it cannot be ${what}. Change the memory files instead; the index follows.`);
  }
}

function requireMarkdown(target: Target): void {
  if (!/\.md$/i.test(target.rel)) {
    throw new MemoryToolError(`${target.shown}: memctx keeps memories as Markdown files; use a path ending in .md, such as ${target.shown.replace(/\.[^./]*$/, '')}.md`);
  }
}

function refuseReadOnly(target: Target, what: string): void {
  const top = target.rel.split('/')[0].toLowerCase();
  if (READ_ONLY_DIRS.includes(top)) {
    throw new MemoryToolError(`${target.shown} is in ${MEMORIES}/${top}/, which the memory tool may read but not change; it cannot be ${what}. Write memories outside ${top}/ (\`memctx ${top === ARCHIVE_DIR ? 'gc' : 'init'}\` manages it).`);
  }
}

/** Refuse file_text over the size limit `add` uses, before any parsing. */
function refuseOversized(target: Target, text: string, what: string): void {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_FILE_BYTES) {
    throw new MemoryToolError(`Nothing written: ${what} is ${bytes} bytes, over memctx's ${MAX_FILE_BYTES}-byte limit for a memory file (${target.shown}). Split it into several smaller memory files.`);
  }
}

function numbered(lines: string[], first: number): string {
  return lines.map((line, i) => `${String(i + first).padStart(LINE_NUMBER_WIDTH, ' ')}\t${line}`).join('\n');
}

function sizeLabel(bytes: number): string {
  if (bytes < 1024) return `${bytes}B`;
  const units = ['K', 'M', 'G'];
  let size = bytes / 1024;
  let unit = 0;
  while (size >= 1024 && unit < units.length - 1) {
    size /= 1024;
    unit++;
  }
  return `${Number.isInteger(size) ? size : size.toFixed(1)}${units[unit]}`;
}

/** A memory file's text for editing (BOM removed, LF line ends); refusals as tool errors. */
async function readFileText(target: Target) {
  const stat = statOf(target);
  if (!stat) throw missing(target);
  if (!stat.isFile()) throw new MemoryToolError(`The path ${target.shown} is not a file.`);
  if (stat.size > MAX_FILE_BYTES) throw new MemoryToolError(`File ${target.shown} is ${stat.size} bytes, over memctx's ${MAX_FILE_BYTES}-byte limit for a memory file.`);
  try {
    return { raw: readRawText(target.abs, target.root), stat };
  } catch (err) {
    if (err instanceof DecodeFailure) throw new MemoryToolError(`File ${target.shown} cannot be read as text: ${err.message}`);
    throw err;
  }
}

function statOf(target: Target) {
  try {
    return statSync(target.abs);
  } catch {
    return undefined;
  }
}

async function view(root: string, cmd: { path: string; view_range?: number[] }, deps: MemoryToolDeps): Promise<string> {
  const target = memoryTarget(root, cmd.path);
  const stat = statOf(target);
  if (!stat) throw missing(target);
  if (stat.isDirectory()) return viewDir(root, target);
  const { raw } = await readFileText(target);
  const lines = (await redactSecrets(raw.text)).split('\n');
  let first = 1;
  let shown = lines;
  if (cmd.view_range !== undefined) {
    const range = cmd.view_range;
    if (!Array.isArray(range) || range.length !== 2 || !range.every((n) => Number.isInteger(n))) {
      throw new MemoryToolError('Invalid `view_range` parameter: it should be a list of two whole numbers [start, end], end -1 for the last line.');
    }
    const [start, end] = range;
    if (start < 1 || start > lines.length) {
      throw new MemoryToolError(`Invalid \`view_range\` parameter: [${start}, ${end}]. Its first element \`${start}\` should be within the range of lines of the file: [1, ${lines.length}]`);
    }
    if (end !== -1 && (end < start || end > lines.length)) {
      throw new MemoryToolError(`Invalid \`view_range\` parameter: [${start}, ${end}]. Its second element \`${end}\` should be -1 or within [${start}, ${lines.length}]`);
    }
    first = start;
    shown = lines.slice(start - 1, end === -1 ? lines.length : end);
  }
  // Viewing a file is a deliberate read: it counts in stats.json (the state folder) (a failure to record it is no error).
  await recordAccess(root, [target.rel], deps.now()).catch(() => undefined);
  return `Here's the content of ${target.shown} with line numbers:\n${numbered(shown, first)}`;
}

function sortedEntries(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    return [];
  }
}

/**
 * Files and folders two levels deep, hidden ones left out, each memory file with its description; at
 * most VIEW_MAX_LINES rows and VIEW_MAX_CHARS characters, then how many entries were left out and how
 * to narrow. Past the cap entries are only counted (no stat, no description), so 10,000 files cost
 * about as much as 2,000.
 */
async function viewDir(root: string, target: Target): Promise<string> {
  const head = `Here're the files and directories up to 2 levels deep in ${target.shown}, excluding hidden items and node_modules:`;
  const rows: { size: number; shown: string; dir: boolean; rel: string; symlink: boolean }[] = [];
  let left = 0;
  const walk = (dir: string, rel: string, depth: number) => {
    for (const entry of sortedEntries(dir)) {
      const name = entry.name;
      if (name.startsWith('.') || name === 'node_modules') continue;
      const abs = join(dir, name);
      const childRel = rel ? `${rel}/${name}` : name;
      const memoryRel = target.rel ? `${target.rel}/${childRel}` : childRel;
      if (rows.length >= VIEW_MAX_LINES - 1 && !entry.isSymbolicLink()) {
        left++;
        if (entry.isDirectory() && depth < 2) walk(abs, childRel, depth + 1);
        continue;
      }
      let stat;
      try {
        if (entry.isSymbolicLink() && !isInside(root, resolveMemoryPath(root, memoryRel, { addExtension: false }).abs)) continue;
        stat = statSync(abs);
      } catch {
        continue;
      }
      if (rows.length >= VIEW_MAX_LINES - 1) left++;
      else if (stat.isDirectory() || stat.isFile()) rows.push({ size: stat.size, shown: `${target.shown}/${childRel}`, dir: stat.isDirectory(), rel: memoryRel, symlink: entry.isSymbolicLink() });
      if (stat.isDirectory() && depth < 2) walk(abs, childRel, depth + 1);
    }
  };
  walk(target.abs, '', 1);
  const files = rows.filter((r) => !r.dir && /\.md$/i.test(r.rel)).map((r) => ({ path: r.rel, symlink: r.symlink }));
  const descriptions = new Map((await indexEntriesFor(root, files, Date.now())).map((f) => [f.path, f.description]));
  // Room for the line that says what was left out.
  const budget = VIEW_MAX_CHARS - 300;
  const lines = [head, `${sizeLabel(statSync(target.abs).size)}\t${target.shown}`];
  let chars = lines[0].length + lines[1].length + 1;
  let shown = 0;
  for (const row of rows) {
    const description = row.dir ? undefined : descriptions.get(row.rel);
    const line = `${sizeLabel(row.size)}\t${row.shown}${row.dir ? '/' : ''}${description ? `\t${description}` : ''}`;
    if (chars + line.length + 1 > budget) break;
    lines.push(line);
    chars += line.length + 1;
    shown++;
  }
  left += rows.length - shown;
  const listing = await redactSecrets(lines.join('\n'));
  if (left === 0) return listing;
  const sub = rows.slice(0, shown).find((row) => row.dir)?.shown;
  return `${listing}\n… ${left} more ${left === 1 ? 'entry' : 'entries'} left out (this answer stops at ${VIEW_MAX_LINES} lines / ${VIEW_MAX_CHARS} characters). Narrow it: view a subfolder${sub ? ` (e.g. ${sub})` : ''}, or use the search tool to find files by subject.`;
}

/** The first line of text worth showing in MEMORY.md, for a created file that has no description. */
function describe(text: string, fallback: string): string {
  for (const line of text.split('\n')) {
    const clean = line.replace(/^\s*(#+|[-*+>]|\d+\.)\s*/, '').replace(/[`*_]/g, '').trim();
    if (clean !== '') return clean.length > 150 ? `${clean.slice(0, 149)}…` : clean;
  }
  return fallback;
}

async function parsed(target: Target, text: string, what: string): Promise<MemoryFile> {
  try {
    return parseMemoryText(target.rel, text, { mtimeMs: 0, size: text.length });
  } catch (err) {
    if (err instanceof ParseFailure) throw new MemoryToolError(`Nothing written: ${what} (line ${err.line}: ${err.message}). ${err.hint ?? ''}`.trim());
    throw err;
  }
}

/** lint's configuration for this memory directory (the types it allows), found from the process's environment. */
async function defaultLintConfig(root: string): Promise<LintConfig> {
  return lintSetup({ memoryDir: root }, { cwd: process.cwd(), env: process.env }).config;
}

/**
 * Refuse a write whose frontmatter `memctx add` would refuse (a wrong type, an out-of-range importance,
 * an unknown kind, a date that does not exist, a missing name): the check is the same, lint's
 * frontmatter rules. An edit is refused only for a problem it adds, never for one the file already had.
 */
async function checkFrontmatter(target: Target, text: string, deps: MemoryToolDeps, before?: MemoryFile): Promise<void> {
  const file = await parsed(target, text, `the text would leave ${target.shown} an invalid memory file`);
  const config = deps.lintConfig ? await deps.lintConfig() : await defaultLintConfig(target.root);
  const found = await addedFrontmatterFindings(file, config, deps.now(), before);
  if (found.length === 0) return;
  const f = found[0];
  throw new MemoryToolError(`Nothing written: ${target.shown}${f.line ? ` line ${f.line}` : ''}: ${f.message} (${f.ruleId}, as \`memctx add\` and \`memctx lint\` check it).`);
}

/** Refuse a text that makes the file a near-duplicate of another memory (an edit of a file that already was one is not refused). */
async function refuseDuplicate(target: Target, text: string, before: string | undefined, deps: MemoryToolDeps): Promise<void> {
  const file = await parsed(target, text, `the text would leave ${target.shown} an invalid memory file`);
  const config = deps.lintConfig ? await deps.lintConfig() : await defaultLintConfig(target.root);
  const found = findDuplicate(target.root, target.rel, file.body, file.kind, config);
  if (!found) return;
  const old = before === undefined ? undefined : await parsed(target, before, target.shown).catch(() => undefined);
  if (old && findDuplicate(target.root, target.rel, old.body, file.kind, config)?.path === found.path) return;
  const other = `/memories/${found.path}`;
  const supersede = found.decisions && before === undefined ? `, or, if this decision replaces it, add \`supersedes: ${found.path}\` to its frontmatter` : '';
  throw new MemoryToolError(`Nothing written: ${target.shown} would nearly duplicate ${other} (${found.how}). Update ${other} with str_replace instead${supersede}; pass force: true to keep both.`);
}

/** A created file's text: its own frontmatter with `created`/`updated` set, or a new valid one. */
async function createdText(target: Target, fileText: string, now: string): Promise<string> {
  const text = fileText.replace(/\r\n/g, '\n').replace(/^\uFEFF/, '');
  const file = await parsed(target, text, 'file_text is not a valid memory file');
  if (file.hasFrontmatter) {
    const changes: Record<string, unknown> = { [file.format.dateKey]: now, ...verifiedStamp(target.root) };
    if (file.data.created === undefined) changes.created = now;
    return serializeMemoryFile({ ...file, format: { ...file.format, bom: false, eol: '\n' } }, changes);
  }
  const name = basename(target.rel).replace(/\.md$/i, '');
  const frontmatter = newFrontmatter({ name, description: describe(text, name), type: 'project', created: now, updated: now, ...verifiedStamp(target.root) });
  const body = text === '' ? '' : `\n${text.endsWith('\n') ? text : `${text}\n`}`;
  return assembleFile(frontmatter, body, { bom: false, eol: '\n' });
}

async function create(root: string, cmd: { path: string; file_text: string; force?: boolean }, deps: MemoryToolDeps): Promise<string> {
  const target = memoryTarget(root, cmd.path);
  if (target.rel === '') throw new MemoryToolError('Cannot create the /memories directory itself; give a file path such as /memories/notes.md');
  refuseIndex(target, 'created');
  refuseReadOnly(target, 'created');
  requireMarkdown(target);
  if (typeof cmd.file_text !== 'string') throw new MemoryToolError('create needs file_text, the whole text of the new file');
  refuseOversized(target, cmd.file_text, 'file_text');
  const text = await createdText(target, cmd.file_text, isoTimestamp(deps.now()));
  await checkFrontmatter(target, text, deps);
  if (!cmd.force) await refuseDuplicate(target, text, undefined, deps);
  await changeAndReindex(root, async () => {
    // Like `memctx add`, create never overwrites (a broken symlink counts as there).
    if (entryExists(target.abs)) throw new MemoryToolError(`File ${target.shown} already exists; create never overwrites. Use str_replace or insert to change it, or delete it first.`);
    await writeMemoryFile(target.abs, target.rel, text, { inside: target.root });
  });
  return `File created successfully at: ${target.shown}`;
}

/**
 * Parse edited text, set `updated` and write it through the store (as `memctx edit` does); an edit that
 * breaks the frontmatter or adds a problem `add` refuses writes nothing.
 */
async function writeEdited(target: Target, raw: import('../../kernel/store/edit.js').RawText, stat: { mtimeMs: number; size: number }, deps: MemoryToolDeps): Promise<string> {
  let text: string;
  try {
    text = finishEdit(target.rel, raw, stat, isoTimestamp(deps.now()), verifiedStamp(target.root));
  } catch (err) {
    if (err instanceof ParseFailure) throw new MemoryToolError(`Nothing written: the edit would leave ${target.shown} an invalid memory file (line ${err.line}: ${err.message}).`);
    throw err;
  }
  const before = await parsed(target, readRawText(target.abs, target.root).text, `${target.shown} is not a valid memory file`).catch(() => undefined);
  await checkFrontmatter(target, text, deps, before);
  await writeMemoryFile(target.abs, target.rel, text, { inside: target.root });
  return text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
}

async function strReplace(root: string, cmd: { path: string; old_str: string; new_str: string; force?: boolean }, deps: MemoryToolDeps): Promise<string> {
  const target = memoryTarget(root, cmd.path);
  refuseIndex(target, 'edited');
  refuseReadOnly(target, 'edited');
  if (typeof cmd.old_str !== 'string' || cmd.old_str === '') throw new MemoryToolError('str_replace needs old_str, the exact non-empty text to replace');
  if (typeof cmd.new_str !== 'string') throw new MemoryToolError('str_replace needs new_str, the replacement text ("" to delete old_str)');
  refuseOversized(target, cmd.new_str, 'new_str');
  const oldStr = cmd.old_str.replace(/\r\n/g, '\n');
  const newStr = cmd.new_str.replace(/\r\n/g, '\n');
  let snippet = '';
  await changeAndReindex(root, async () => {
    const { raw, stat } = await readFileText(target);
    const lines: number[] = [];
    for (let at = raw.text.indexOf(oldStr); at !== -1; at = raw.text.indexOf(oldStr, at + oldStr.length)) lines.push(lineAt(raw.text, at));
    if (lines.length === 0) throw new MemoryToolError(`No replacement was performed, old_str \`${cmd.old_str}\` did not appear verbatim in ${target.shown}.`);
    if (lines.length > 1) throw new MemoryToolError(`No replacement was performed. Multiple occurrences of old_str \`${cmd.old_str}\` in lines: ${lines.join(', ')}. Please ensure it is unique`);
    const edited = raw.text.replace(oldStr, () => newStr);
    if (!cmd.force) await refuseDuplicate(target, edited, raw.text, deps);
    const written = await writeEdited(target, { ...raw, text: edited }, stat, deps);
    // Setting `updated` may add a frontmatter line above the change.
    const shift = written.split('\n').length - edited.split('\n').length;
    const changed = lines[0] + shift;
    const all = written.split('\n');
    const from = Math.max(1, changed - 4);
    const to = Math.min(all.length, changed + newStr.split('\n').length + 3);
    snippet = numbered(all.slice(from - 1, to), from);
  });
  return `The memory file has been edited. Here is the snippet showing the change (with line numbers):\n${snippet}`;
}

async function insert(root: string, cmd: { path: string; insert_line: number; insert_text: string }, deps: MemoryToolDeps): Promise<string> {
  const target = memoryTarget(root, cmd.path);
  refuseIndex(target, 'edited');
  refuseReadOnly(target, 'edited');
  if (!Number.isInteger(cmd.insert_line)) throw new MemoryToolError('insert needs insert_line, a whole number: 0 inserts before the first line, N after line N');
  if (typeof cmd.insert_text !== 'string') throw new MemoryToolError('insert needs insert_text, the text to insert');
  refuseOversized(target, cmd.insert_text, 'insert_text');
  await changeAndReindex(root, async () => {
    const { raw, stat } = await readFileText(target);
    const lines = raw.text.split('\n');
    if (cmd.insert_line < 0 || cmd.insert_line > lines.length) {
      throw new MemoryToolError(`Invalid \`insert_line\` parameter: ${cmd.insert_line}. It should be within the range of lines of the file: [0, ${lines.length}]`);
    }
    lines.splice(cmd.insert_line, 0, cmd.insert_text.replace(/\r\n/g, '\n').replace(/\n$/, ''));
    await writeEdited(target, { ...raw, text: lines.join('\n') }, stat, deps);
  });
  return `The file ${target.shown} has been edited.`;
}

/** Delete one file, as `memctx rm` does (store/write.ts removeMemoryFile); a directory is refused. */
async function remove(root: string, cmd: { path: string }): Promise<string> {
  const target = memoryTarget(root, cmd.path);
  if (target.rel === '') throw new MemoryToolError('Cannot delete the /memories directory itself');
  refuseIndex(target, 'deleted');
  refuseReadOnly(target, 'deleted');
  await changeAndReindex(root, async () => {
    const stat = lstatSync(target.abs, { throwIfNoEntry: false });
    if (!stat) throw new MemoryToolError(`The path ${target.shown} does not exist`);
    if (stat.isDirectory()) throw new MemoryToolError(`${target.shown} is a directory; delete removes one file at a time. Delete its files one by one (view ${target.shown} lists them).`);
    removeMemoryFile(root, target.abs);
  });
  return `Successfully deleted ${target.shown}`;
}

/** Rename one file, as `memctx mv` does (store/archive.ts moveNoClobber, then `updated` set); never overwrites. */
async function rename(root: string, cmd: { old_path: string; new_path: string }, deps: MemoryToolDeps): Promise<string> {
  const from = memoryTarget(root, cmd.old_path);
  const to = memoryTarget(root, cmd.new_path);
  if (from.rel === '' || to.rel === '') throw new MemoryToolError('Cannot rename the /memories directory itself');
  refuseIndex(from, 'renamed');
  refuseIndex(to, 'overwritten');
  refuseReadOnly(from, 'renamed');
  refuseReadOnly(to, 'written');
  await changeAndReindex(root, async () => {
    const stat = statOf(from);
    if (!stat) throw new MemoryToolError(`The path ${from.shown} does not exist`);
    if (stat.isDirectory()) throw new MemoryToolError(`${from.shown} is a directory; rename moves one file at a time. Rename its files one by one.`);
    requireMarkdown(to);
    if (entryExists(to.abs)) throw new MemoryToolError(`The destination ${to.shown} already exists`);
    const why = moveNoClobber(root, from.abs, to.abs);
    if (why === ALREADY_EXISTS) throw new MemoryToolError(`The destination ${to.shown} already exists`);
    if (why) throw new MemoryToolError(`${to.shown}: ${why}`);
    await stampMoved(root, to, deps.now());
  });
  return `Successfully renamed ${from.shown} to ${to.shown}`;
}

/** The shared write path (actions/reindex.ts): lock, refuse early if MEMORY.md's markers are broken, change, rebuild the index. */
async function changeAndReindex(root: string, change: () => Promise<void>): Promise<void> {
  // The write succeeded; a re-index that fails after it is not the tool call's failure (lint's index/stale shows it).
  await writeAndReindex(root, change, () => undefined);
}

/** Run one memory-tool command; resolves to the tool's answer, rejects with MemoryToolError (or MemctxError) on a refusal. */
export async function runMemoryCommand(root: string, input: MemoryCommand, deps: MemoryToolDeps = { now: () => new Date() }): Promise<string> {
  let cmd: MemoryCommand;
  try {
    cmd = parseMemoryCommand(input) as MemoryCommand;
  } catch (err) {
    throw new MemoryToolError(memoryErrorText(err, root));
  }
  switch (cmd.command) {
    case 'view':
      return view(root, cmd, deps);
    case 'create':
      return create(root, cmd, deps);
    case 'str_replace':
      return strReplace(root, cmd, deps);
    case 'insert':
      return insert(root, cmd, deps);
    case 'delete':
      return remove(root, cmd);
    case 'rename':
      return rename(root, cmd, deps);
    default:
      throw new MemoryToolError(`Unknown command ${JSON.stringify((cmd as { command?: unknown })?.command)}; use one of ${MEMORY_COMMANDS.join(', ')}`);
  }
}

/**
 * The memory-tool command handlers over a memory directory, shaped like `MemoryToolHandlers` of
 * `@anthropic-ai/sdk` (`betaMemoryTool(memoryToolHandlers(dir))`). A refusal rejects with an Error
 * whose message is the answer for the model.
 */
export function memoryToolHandlers(dir: string, deps: MemoryToolDeps = { now: () => new Date() }) {
  const run = (cmd: MemoryCommand) =>
    runMemoryCommand(dir, cmd, deps).catch((err: unknown) => {
      throw new MemoryToolError(memoryErrorText(err, dir));
    });
  return {
    view: (cmd: { command: 'view'; path: string; view_range?: number[] }) => run(cmd),
    create: (cmd: { command: 'create'; path: string; file_text: string }) => run(cmd),
    str_replace: (cmd: { command: 'str_replace'; path: string; old_str: string; new_str: string }) => run(cmd),
    insert: (cmd: { command: 'insert'; path: string; insert_line: number; insert_text: string }) => run(cmd),
    delete: (cmd: { command: 'delete'; path: string }) => run(cmd),
    rename: (cmd: { command: 'rename'; old_path: string; new_path: string }) => run(cmd),
  };
}

