import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeText, DecodeFailure } from './decode.js';
import { MemctxError } from './errors.js';
import { INDEX_FILE } from './scan.js';
import { writeFileAtomic } from './write.js';

export function indexPath(root: string): string {
  return join(root, INDEX_FILE);
}

/** MEMORY.md's text, or undefined when there is none yet. */
export function readIndexFile(root: string): string | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(indexPath(root));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new MemctxError(`cannot read ${INDEX_FILE} (${(err as NodeJS.ErrnoException).code})`, { file: indexPath(root), hint: 'check its permissions' });
  }
  try {
    return decodeText(bytes);
  } catch (err) {
    const e = err as DecodeFailure;
    throw new MemctxError(`${INDEX_FILE}: ${e.message}`, { file: indexPath(root), line: e.line, hint: e.hint });
  }
}

export async function writeIndexFile(root: string, text: string): Promise<void> {
  await writeFileAtomic(indexPath(root), text);
}
