/**
 * Anthropic's memory tool (`memory_20250818`) over a memory directory: the six commands with their
 * argument names and answers, `/memories` mapped onto the directory. Every write goes through the
 * store (safe paths, lock, atomic write, frontmatter kept, `updated` set, MEMORY.md rebuilt).
 * The MCP server's `memory` tool and the library's handlers for the Anthropic SDK both call this.
 */
import { lstatSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { MemctxError } from '../errors.js';
import { CACHE_DIR, MAX_FILE_BYTES } from '../store/layout.js';
import { assertStillInside, entryExists, isIndexPath, isInside, resolveMemoryPath } from '../store/paths.js';
import { isoTimestamp } from '../store/schema.js';
import { lineAt } from '../lines.js';

export const MEMORIES = '/memories';

export type MemoryCommand =
  | { command: 'view'; path: string; view_range?: number[] }
  | { command: 'create'; path: string; file_text: string }
  | { command: 'str_replace'; path: string; old_str: string; new_str: string }
  | { command: 'insert'; path: string; insert_line: number; insert_text: string }
  | { command: 'delete'; path: string }
  | { command: 'rename'; old_path: string; new_path: string };

export type MemoryCommandName = MemoryCommand['command'];
export const MEMORY_COMMANDS: readonly MemoryCommandName[] = ['view', 'create', 'str_replace', 'insert', 'delete', 'rename'];

/** A refusal the model should read and act on; the message is the tool's answer. */
export class MemoryToolError extends MemctxError {
  constructor(message: string) {
    super(message);
    this.name = 'MemoryToolError';
  }
}

export interface MemoryToolDeps {
  now: () => Date;
}

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
export function memoryTarget(root: string, input: unknown): Target {
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
  const { readRawText } = await import('../store/edit.js');
  const { DecodeFailure } = await import('../store/decode.js');
  try {
    return { raw: readRawText(target.abs), stat };
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
  const lines = raw.text.split('\n');
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
  // Viewing a file is a deliberate read: it counts in .memctx/stats.json (a failure to record it is no error).
  const { recordAccess } = await import('../cache/stats.js');
  await recordAccess(root, [target.rel], deps.now()).catch(() => undefined);
  return `Here's the content of ${target.shown} with line numbers:\n${numbered(shown, first)}`;
}

/** Files and folders two levels deep, hidden ones left out, each memory file with its description. */
async function viewDir(root: string, target: Target): Promise<string> {
  const { scanIndexEntries } = await import('../cache/scan-cache.js');
  const descriptions = new Map((await scanIndexEntries(root, Date.now())).files.map((f) => [f.path, f.description]));
  const rows: string[] = [`${sizeLabel(statSync(target.abs).size)}\t${target.shown}`];
  const walk = (dir: string, rel: string, depth: number) => {
    for (const name of readdirSync(dir).sort()) {
      if (name.startsWith('.') || name === 'node_modules') continue;
      const abs = join(dir, name);
      const childRel = rel ? `${rel}/${name}` : name;
      let stat;
      try {
        if (lstatSync(abs).isSymbolicLink() && !isInside(root, resolveMemoryPath(root, childRel, { addExtension: false }).abs)) continue;
        stat = statSync(abs);
      } catch {
        continue;
      }
      const shown = `${target.shown}/${childRel}`;
      if (stat.isDirectory()) {
        rows.push(`${sizeLabel(stat.size)}\t${shown}/`);
        if (depth < 2) walk(abs, childRel, depth + 1);
      } else if (stat.isFile()) {
        const description = descriptions.get(target.rel ? `${target.rel}/${childRel}` : childRel);
        rows.push(`${sizeLabel(stat.size)}\t${shown}${description ? `\t${description}` : ''}`);
      }
    }
  };
  walk(target.abs, '', 1);
  return `Here're the files and directories up to 2 levels deep in ${target.shown}, excluding hidden items and node_modules:\n${rows.join('\n')}`;
}

/** The first line of text worth showing in MEMORY.md, for a created file that has no description. */
function describe(text: string, fallback: string): string {
  for (const line of text.split('\n')) {
    const clean = line.replace(/^\s*(#+|[-*+>]|\d+\.)\s*/, '').replace(/[`*_]/g, '').trim();
    if (clean !== '') return clean.length > 150 ? `${clean.slice(0, 149)}…` : clean;
  }
  return fallback;
}

/** A created file's text: its own frontmatter with `created`/`updated` set, or a new valid one. */
async function createdText(target: Target, fileText: string, now: string): Promise<string> {
  const { parseMemoryText, ParseFailure } = await import('../store/parse.js');
  const { newFrontmatter, assembleFile, serializeMemoryFile } = await import('../store/serialize.js');
  const text = fileText.replace(/\r\n/g, '\n').replace(/^\uFEFF/, '');
  let parsed;
  try {
    parsed = parseMemoryText(target.rel, text, { mtimeMs: 0, size: text.length });
  } catch (err) {
    if (err instanceof ParseFailure) throw new MemoryToolError(`Nothing written: file_text is not a valid memory file (line ${err.line}: ${err.message}). ${err.hint ?? ''}`.trim());
    throw err;
  }
  if (parsed.hasFrontmatter) {
    const changes: Record<string, unknown> = { [parsed.format.dateKey]: now };
    if (parsed.data.created === undefined) changes.created = now;
    return serializeMemoryFile({ ...parsed, format: { ...parsed.format, bom: false, eol: '\n' } }, changes);
  }
  const name = basename(target.rel).replace(/\.md$/i, '');
  const frontmatter = newFrontmatter({ name, description: describe(text, name), type: 'project', created: now, updated: now });
  const body = text === '' ? '' : `\n${text.endsWith('\n') ? text : `${text}\n`}`;
  return assembleFile(frontmatter, body, { bom: false, eol: '\n' });
}

async function create(root: string, cmd: { path: string; file_text: string }, deps: MemoryToolDeps): Promise<string> {
  const target = memoryTarget(root, cmd.path);
  if (target.rel === '') throw new MemoryToolError('Cannot create the /memories directory itself; give a file path such as /memories/notes.md');
  refuseIndex(target, 'created');
  requireMarkdown(target);
  if (typeof cmd.file_text !== 'string') throw new MemoryToolError('create needs file_text, the whole text of the new file');
  const text = await createdText(target, cmd.file_text, isoTimestamp(deps.now()));
  const { writeMemoryFile } = await import('../store/write.js');
  await changeAndReindex(root, async () => {
    // Like `memctx add`, create never overwrites (a broken symlink counts as there).
    if (entryExists(target.abs)) throw new MemoryToolError(`File ${target.shown} already exists; create never overwrites. Use str_replace or insert to change it, or delete it first.`);
    await writeMemoryFile(target.abs, target.rel, text, { inside: target.root });
  });
  return `File created successfully at: ${target.shown}`;
}

/** Parse edited text, set `updated` and write it; an edit that breaks the frontmatter writes nothing. */
async function writeEdited(target: Target, raw: import('../store/edit.js').RawText, stat: { mtimeMs: number; size: number }, now: string): Promise<string> {
  const { finishEdit } = await import('../store/edit.js');
  const { ParseFailure } = await import('../store/parse.js');
  const { writeMemoryFile } = await import('../store/write.js');
  let text: string;
  try {
    text = finishEdit(target.rel, raw, stat, now);
  } catch (err) {
    if (err instanceof ParseFailure) throw new MemoryToolError(`Nothing written: the edit would leave ${target.shown} an invalid memory file (line ${err.line}: ${err.message}).`);
    throw err;
  }
  await writeMemoryFile(target.abs, target.rel, text, { inside: target.root });
  return text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
}

async function strReplace(root: string, cmd: { path: string; old_str: string; new_str: string }, deps: MemoryToolDeps): Promise<string> {
  const target = memoryTarget(root, cmd.path);
  refuseIndex(target, 'edited');
  if (typeof cmd.old_str !== 'string' || cmd.old_str === '') throw new MemoryToolError('str_replace needs old_str, the exact non-empty text to replace');
  if (typeof cmd.new_str !== 'string') throw new MemoryToolError('str_replace needs new_str, the replacement text ("" to delete old_str)');
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
    const written = await writeEdited(target, { ...raw, text: edited }, stat, isoTimestamp(deps.now()));
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
  if (!Number.isInteger(cmd.insert_line)) throw new MemoryToolError('insert needs insert_line, a whole number: 0 inserts before the first line, N after line N');
  if (typeof cmd.insert_text !== 'string') throw new MemoryToolError('insert needs insert_text, the text to insert');
  await changeAndReindex(root, async () => {
    const { raw, stat } = await readFileText(target);
    const lines = raw.text.split('\n');
    if (cmd.insert_line < 0 || cmd.insert_line > lines.length) {
      throw new MemoryToolError(`Invalid \`insert_line\` parameter: ${cmd.insert_line}. It should be within the range of lines of the file: [0, ${lines.length}]`);
    }
    lines.splice(cmd.insert_line, 0, cmd.insert_text.replace(/\r\n/g, '\n').replace(/\n$/, ''));
    await writeEdited(target, { ...raw, text: lines.join('\n') }, stat, isoTimestamp(deps.now()));
  });
  return `The file ${target.shown} has been edited.`;
}

async function remove(root: string, cmd: { path: string }): Promise<string> {
  const target = memoryTarget(root, cmd.path);
  if (target.rel === '') throw new MemoryToolError('Cannot delete the /memories directory itself');
  refuseIndex(target, 'deleted');
  await changeAndReindex(root, async () => {
    if (!entryExists(target.abs)) throw new MemoryToolError(`The path ${target.shown} does not exist`);
    assertStillInside(root, target.abs);
    rmSync(target.abs, { recursive: true, force: false });
  });
  return `Successfully deleted ${target.shown}`;
}

async function rename(root: string, cmd: { old_path: string; new_path: string }, deps: MemoryToolDeps): Promise<string> {
  const from = memoryTarget(root, cmd.old_path);
  const to = memoryTarget(root, cmd.new_path);
  if (from.rel === '' || to.rel === '') throw new MemoryToolError('Cannot rename the /memories directory itself');
  refuseIndex(from, 'renamed');
  refuseIndex(to, 'overwritten');
  await changeAndReindex(root, async () => {
    const stat = statOf(from);
    if (!stat) throw new MemoryToolError(`The path ${from.shown} does not exist`);
    if (stat.isFile()) requireMarkdown(to);
    if (entryExists(to.abs)) throw new MemoryToolError(`The destination ${to.shown} already exists`);
    if (isInside(from.abs, to.abs)) throw new MemoryToolError(`Cannot move ${from.shown} into itself`);
    const { mkdirSync } = await import('node:fs');
    const { dirname } = await import('node:path');
    mkdirSync(dirname(to.abs), { recursive: true });
    // One atomic rename; then `updated` is set on a file that parses (others keep their bytes).
    assertStillInside(root, from.abs);
    assertStillInside(root, to.abs);
    renameSync(from.abs, to.abs);
    if (stat.isFile() && stat.size <= MAX_FILE_BYTES) {
      try {
        const { raw } = await readFileText(to);
        await writeEdited(to, raw, stat, isoTimestamp(deps.now()));
      } catch (err) {
        if (!(err instanceof MemoryToolError)) throw err;
      }
    }
  });
  return `Successfully renamed ${from.shown} to ${to.shown}`;
}

/** The shared write path (actions/reindex.ts): lock, refuse early if MEMORY.md's markers are broken, change, rebuild the index. */
async function changeAndReindex(root: string, change: () => Promise<void>): Promise<void> {
  const { writeAndReindex } = await import('./reindex.js');
  // The write succeeded; a re-index that fails after it is not the tool call's failure (lint's index/stale shows it).
  await writeAndReindex(root, change, () => undefined);
}

/** Run one memory-tool command; resolves to the tool's answer, rejects with MemoryToolError (or MemctxError) on a refusal. */
export async function runMemoryCommand(root: string, cmd: MemoryCommand, deps: MemoryToolDeps = { now: () => new Date() }): Promise<string> {
  switch (cmd?.command) {
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

/** A refusal as the text the model sees. */
export function memoryErrorText(err: unknown): string {
  if (err instanceof MemoryToolError) return err.message;
  if (err instanceof MemctxError) return `${err.file ? `${err.file}: ` : ''}${err.message}${err.hint ? ` (${err.hint})` : ''}`;
  return `unexpected failure: ${(err as Error).message ?? String(err)}`;
}

/**
 * The memory-tool command handlers over a memory directory, shaped like `MemoryToolHandlers` of
 * `@anthropic-ai/sdk` (`betaMemoryTool(memoryToolHandlers(dir))`). A refusal rejects with an Error
 * whose message is the answer for the model.
 */
export function memoryToolHandlers(dir: string, deps: MemoryToolDeps = { now: () => new Date() }) {
  const run = (cmd: MemoryCommand) =>
    runMemoryCommand(dir, cmd, deps).catch((err: unknown) => {
      throw err instanceof MemoryToolError ? err : new MemoryToolError(memoryErrorText(err));
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

