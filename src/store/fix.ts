import { join } from 'node:path';
import { isProblem, readMemoryFile } from './scan.js';
import { serializeMemoryFile } from './serialize.js';
import { writeFileAtomic } from './write.js';

/**
 * Set a missing date key (`updated` or `modified`) in a memory file, atomically. Re-reads the file
 * first and changes nothing when it is no longer a valid memory file or already has the key.
 * Returns true when the file was written. Call inside withMemoryLock.
 */
export async function setMissingDate(root: string, path: string, key: 'updated' | 'modified', value: string): Promise<boolean> {
  const file = readMemoryFile(root, path);
  if (isProblem(file) || !file.hasFrontmatter || file.updated !== undefined || file.format.dateKey !== key) return false;
  await writeFileAtomic(join(root, path), serializeMemoryFile(file, { [key]: value }), { inside: root });
  return true;
}
