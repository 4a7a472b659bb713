import { join } from 'node:path';
import { isProblem, readMemoryFile } from '../../kernel/store/scan.js';
import { serializeMemoryFile } from '../../kernel/store/serialize.js';
import { MemctxError } from '../../kernel/errors.js';
import { checkMemoryText, writeFileAtomic } from '../../kernel/store/write.js';

/**
 * Set a missing date key (`updated` or `modified`) in a memory file, atomically. Re-reads the file
 * first and changes nothing when it changed since lint read it (no longer valid, or the key is now
 * set) or when the change would take it over the size limit. Returns undefined when the file was
 * written, else why not. Call inside withMemoryLock.
 */
export async function setMissingDate(root: string, path: string, key: 'updated' | 'modified', value: string): Promise<string | undefined> {
  const file = readMemoryFile(root, path);
  if (isProblem(file) || !file.hasFrontmatter || file.updated !== undefined || file.format.dateKey !== key) {
    return 'the file changed after lint read it (another process wrote it); run `memctx lint --fix` again';
  }
  const text = serializeMemoryFile(file, { [key]: value });
  try {
    checkMemoryText(path, text);
  } catch (err) {
    if (err instanceof MemctxError) return `${err.message}; ${err.hint}`;
    throw err;
  }
  await writeFileAtomic(join(root, path), text, { inside: root });
  return undefined;
}
