/**
 * Files that tool calls in a transcript wrote, edited, moved or deleted (for a session summary's
 * Changed Files): edit tools and patches, and the shell's `mv`, `git mv`, `cp`, `rm` and `>`.
 */
import { posix } from 'node:path';
import { fileOps, shellCommand, simpleCommands } from './commands.js';
import { isRecord } from '../values.js';
import type { TranscriptItem } from './types.js';

export interface ChangedFile {
  path: string;
  /** The tool that changed it (Write, Edit, apply_patch, Bash, …). */
  tool: string;
  /** Source line of the (last) call. */
  line: number;
  /** The path it had before a move during the session. */
  from?: string;
  /** Removed by the session (and not written again after). */
  deleted?: boolean;
}

const PATH_KEYS = ['file_path', 'notebook_path', 'path', 'filePath', 'filename', 'file'];
const WRITING_TOOL = /write|edit|create|patch|replace|insert|save|delete|remove|move|rename/i;
const PATCH_HEADER = /^\*\*\* (?:Add|Update|Delete) File:[ \t]*(.*)$|^\*\*\* Move to:[ \t]*(.*)$/gm;

/** Paths named by an apply_patch-style patch (`*** Update File: path`). */
export function patchPaths(patch: string): string[] {
  const out: string[] = [];
  // a patch quoted inside a script (Codex's `exec` tool: `tools.apply_patch("*** Begin Patch\n…")`)
  const text = /\*\*\* Begin Patch\\n/.test(patch) ? patch.replace(/\\n/g, '\n') : patch;
  for (const m of text.matchAll(PATCH_HEADER)) {
    const path = (m[1] ?? m[2]).trim();
    if (path) out.push(path);
  }
  return out;
}

/** What a patch did to each file: deleted (`*** Delete File:`) and moved (`*** Update File: a` then `*** Move to: b`). */
function patchMoves(patch: string): { deleted: string[]; moved: [string, string][] } {
  const text = /\*\*\* Begin Patch\\n/.test(patch) ? patch.replace(/\\n/g, '\n') : patch;
  const deleted = [...text.matchAll(/^\*\*\* Delete File:[ \t]*(.+)$/gm)].map((m) => m[1].trim());
  const moved = [...text.matchAll(/^\*\*\* Update File:[ \t]*(.+)\n\*\*\* Move to:[ \t]*(.+)$/gm)].map((m): [string, string] => [m[1].trim(), m[2].trim()]);
  return { deleted, moved };
}

function callPaths(item: TranscriptItem): string[] {
  const name = item.toolName ?? '';
  const input = item.toolInput;
  if (typeof input === 'string') return /patch/i.test(name) || input.includes('*** Begin Patch') ? patchPaths(input) : [];
  if (!isRecord(input)) return [];
  // apply_patch run through a shell: {"command": ["apply_patch", "*** Begin Patch…"]}, {"command": "apply_patch <<'EOF'…"}, {"cmd": …}
  for (const key of ['command', 'cmd', 'input', 'patch']) {
    const value = input[key];
    const texts = Array.isArray(value) ? value.filter((c): c is string => typeof c === 'string') : typeof value === 'string' ? [value] : [];
    if (texts.some((c) => c.includes('*** Begin Patch'))) return texts.flatMap(patchPaths);
  }
  if (typeof input.patch === 'string') return patchPaths(input.patch);
  if (!WRITING_TOOL.test(name)) return [];
  const paths: string[] = [];
  for (const key of PATH_KEYS) if (typeof input[key] === 'string' && input[key]) paths.push(input[key]);
  if (Array.isArray(input.edits)) {
    for (const e of input.edits) if (isRecord(e) && typeof e.file_path === 'string') paths.push(e.file_path);
  }
  return paths;
}

/**
 * Files changed by tool calls and shell commands, in order of first change, each once and under its
 * final path (a moved file keeps the path it came from); calls whose result was an error are left out.
 */
export function changedFiles(items: TranscriptItem[], cwd?: string): ChangedFile[] {
  // one key per file, however a call named it: absolute when the session's folder is known
  const key = (path: string) => (cwd && !path.startsWith('/') && !path.startsWith('~') && !/^[A-Za-z]:[\\/]/.test(path) ? posix.join(cwd, path) : path);
  const failed = new Set(items.filter((i) => i.kind === 'tool_result' && i.isError && i.toolId).map((i) => i.toolId));
  const byPath = new Map<string, ChangedFile>();
  const touch = (named: string, item: TranscriptItem): ChangedFile => {
    const path = key(named);
    const seen = byPath.get(path);
    if (seen) {
      seen.line = item.line;
      delete seen.deleted;
      return seen;
    }
    const file: ChangedFile = { path, tool: item.toolName ?? 'tool', line: item.line };
    byPath.set(path, file);
    return file;
  };
  const move = (from: string, to: string, item: TranscriptItem) => {
    const before = byPath.get(key(from));
    byPath.delete(key(from));
    const file = touch(to, item);
    file.from = before?.from ?? key(from);
    if (before && before.tool !== file.tool) file.tool = before.tool;
  };
  for (const item of items) {
    if (item.kind !== 'tool_call' || (item.toolId && failed.has(item.toolId))) continue;
    const paths = callPaths(item);
    for (const path of paths) touch(path, item);
    if (paths.length && item.text.includes('*** ')) {
      const { deleted, moved } = patchMoves(typeof item.toolInput === 'string' ? item.toolInput : item.text);
      for (const [from, to] of moved) move(from, to, item);
      for (const path of deleted) touch(path, item).deleted = true;
    }
    const command = shellCommand(item);
    if (command === undefined || command.includes('*** Begin Patch')) continue;
    for (const cmd of simpleCommands(command)) {
      for (const op of fileOps(cmd)) {
        if (op.kind === 'write') touch(op.path, item);
        else if (op.kind === 'copy') touch(op.to, item);
        else if (op.kind === 'remove') {
          const file = byPath.get(key(op.path)) ?? touch(op.path, item);
          file.deleted = true;
        } else move(op.from, op.to, item);
      }
    }
  }
  return [...byPath.values()];
}
