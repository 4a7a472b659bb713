import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { MemctxError } from '../errors.js';
import { CACHE_DIR, INDEX_FILE, TEMPLATES_DIR } from './layout.js';
import { writeFileAtomic } from './write.js';

/**
 * Create the memory directory's skeleton. Existing files are never overwritten; a .gitignore that
 * lacks the cache line gets it appended. Returns what was created or changed, relative to root.
 */
export async function initMemoryDir(root: string, emptyIndex: () => string | Promise<string>): Promise<string[]> {
  const created: string[] = [];
  if (existsSync(root) && !statSync(root).isDirectory()) {
    throw new MemctxError(`${root} exists and is not a directory`, { hint: 'remove it or pass --dir to another path' });
  }
  if (!existsSync(root)) {
    mkdirSync(root, { recursive: true });
    created.push('.');
  }
  const templates = join(root, TEMPLATES_DIR);
  if (!existsSync(templates)) {
    mkdirSync(templates);
    await writeFileAtomic(join(templates, '.gitkeep'), '');
    created.push(`${TEMPLATES_DIR}/`);
  }
  const gitignore = join(root, '.gitignore');
  const line = `${CACHE_DIR}/`;
  if (!existsSync(gitignore)) {
    await writeFileAtomic(gitignore, `${line}\n`);
    created.push('.gitignore');
  } else {
    const text = readFileSync(gitignore, 'utf8');
    if (!text.split(/\r?\n/).some((l) => l.trim() === line || l.trim() === CACHE_DIR || l.trim() === `/${line}`)) {
      await writeFileAtomic(gitignore, `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}${line}\n`);
      created.push('.gitignore');
    }
  }
  if (!existsSync(join(root, INDEX_FILE))) {
    await writeFileAtomic(join(root, INDEX_FILE), await emptyIndex());
    created.push(INDEX_FILE);
  }
  return created;
}
