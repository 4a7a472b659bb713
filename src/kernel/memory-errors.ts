/**
 * How the memory tool and the MCP server answer a refusal: in /memories terms, never a host path. Kept
 * apart from the tool itself so the MCP server can load it without the tool's schemas.
 */
import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { MemctxError } from './errors.js';
import { isInside } from './store/paths.js';

export const MEMORIES = '/memories';

/** A refusal the model should read and act on; the message is the tool's answer. */
export class MemoryToolError extends MemctxError {
  constructor(message: string) {
    super(message);
    this.name = 'MemoryToolError';
  }
}

/**
 * Host paths in a text as the model sees them: the memory directory (as given or resolved) becomes
 * /memories; any other absolute path is cut to its last part, so no answer names a host folder.
 */
export function inMemoriesTerms(text: string, root: string | undefined): string {
  let out = text;
  if (root) {
    const roots = [resolve(root)];
    try {
      roots.push(realpathSync(root));
    } catch {
      // the directory is gone: the path as given is all there is
    }
    for (const r of [...new Set(roots)].sort((a, b) => b.length - a.length)) out = out.split(r).join(MEMORIES);
  }
  return out.replace(/(^|[\s"'`(=])(\/(?!memories\b)[^\s"'`)]*\/)([^\s"'`/)]+)/g, (_m, pre: string, _dir: string, last: string) => `${pre}…/${last}`);
}

/** A refusal as the text the model sees, in /memories terms (never a host path). */
export function memoryErrorText(err: unknown, root?: string): string {
  if (err instanceof MemoryToolError) return inMemoriesTerms(err.message, root);
  if (err instanceof MemctxError) {
    // A relative name is the store's, relative to the memory directory.
    const file = err.file === undefined ? '' : !isAbsolute(err.file) ? `${MEMORIES}/${err.file}` : root && isInside(root, err.file) ? `${MEMORIES}/${relative(root, err.file).split(sep).join('/')}` : err.file;
    const at = file && err.line !== undefined ? `${file}:${err.line}` : file;
    return inMemoriesTerms(`${at ? `${at}: ` : ''}${err.message}${err.hint ? ` (${err.hint})` : ''}`, root);
  }
  return inMemoriesTerms(`unexpected failure: ${(err as Error).message ?? String(err)}`, root);
}

