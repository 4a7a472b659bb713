import { join } from 'node:path';
import { decodeText, DecodeFailure } from '../store/decode.js';
import { MemctxError } from '../errors.js';
import { INDEX_FILE, MAX_FILE_BYTES } from '../store/layout.js';
import { writeFileAtomic } from '../store/write.js';
import { isSymlink, resolveMemoryPath } from '../store/paths.js';
import { readRegularFile } from '../store/read-file.js';
const { existsSync } = process.getBuiltinModule('node:fs');

export function indexPath(root: string): string {
  return join(root, INDEX_FILE);
}

/** MEMORY.md may be a symlink only within the memory directory: never read or write through one that leaves it. */
function checkIndexLink(root: string): void {
  if (!isSymlink(indexPath(root))) return;
  try {
    resolveMemoryPath(root, INDEX_FILE);
  } catch (err) {
    if (!(err instanceof MemctxError)) throw err;
    throw new MemctxError(`${INDEX_FILE} is a symbolic link to outside the memory directory; not read or written`, { file: indexPath(root), hint: 'replace the link with a regular file' });
  }
}

/** MEMORY.md's text, or undefined when there is none yet. */
export function readIndexFile(root: string): string | undefined {
  checkIndexLink(root);
  let bytes: Buffer;
  try {
    bytes = readRegularFile(indexPath(root), { maxBytes: MAX_FILE_BYTES, what: INDEX_FILE, inside: root });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || !existsSync(indexPath(root))) return undefined;
    if (err instanceof MemctxError) throw err;
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
  checkIndexLink(root);
  await writeFileAtomic(indexPath(root), text, { inside: root });
}
