/** `memctx show`: one memory file (or MEMORY.md) read, and counted as read. */
import { existsSync } from 'node:fs';
import { EXIT_USAGE, MemctxError } from '../../kernel/errors.js';
import type { MemoryFile } from '../../kernel/store/types.js';
import { resolveMemoryPath, isIndexPath } from '../../kernel/store/paths.js';
import { readMemoryFile, isProblem } from '../../kernel/store/scan.js';
import { readRegularFile } from '../../kernel/store/read-file.js';
import { MAX_FILE_BYTES } from '../../kernel/store/layout.js';
import { secretWarnings } from '../../kernel/lint/secrets.js';
import { recordAccess } from '../../kernel/state/stats.js';

export interface ShowOptions {
  root: string;
  /** The path as typed, inside the memory directory. */
  path: string;
  /** Also return the file's text as on disk and the secrets found in it. */
  withText?: boolean;
}

export interface ShowDeps {
  now: () => Date;
}

export type ShowResult =
  /** MEMORY.md, which is not parsed and not counted. */
  | { index: true; path: string; text: string }
  | { index: false; path: string; file: MemoryFile; text?: string; warnings: string[]; accessError?: string };

export async function show(options: ShowOptions, deps: ShowDeps): Promise<ShowResult> {
  const { root } = options;
  const target = resolveMemoryPath(root, options.path);
  const readText = () => readRegularFile(target.abs, { name: target.rel, maxBytes: MAX_FILE_BYTES, what: 'memory file', inside: root }).toString('utf8');
  if (!existsSync(target.abs)) {
    throw new MemctxError(`no memory file ${target.rel}`, { hint: 'run `memctx ls` to see the files' });
  }
  if (isIndexPath(target.rel)) return { index: true, path: target.rel, text: readText() };
  const file = readMemoryFile(root, target.rel);
  if (isProblem(file)) {
    throw new MemctxError(file.message, { file: target.rel, line: file.line, hint: file.hint, exitCode: EXIT_USAGE });
  }
  const result: ShowResult = { index: false, path: target.rel, file, warnings: [] };
  if (options.withText) {
    const text = readText();
    result.text = text;
    result.warnings = await secretWarnings([{ path: target.rel, text }]);
  }
  try {
    await recordAccess(root, [target.rel], deps.now());
  } catch (err) {
    result.accessError = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
  }
  return result;
}
