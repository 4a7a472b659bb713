import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { MemctxError } from '../../kernel/errors.js';
import { CACHE_DIR, INDEX_FILE, TEMPLATES_DIR } from '../../kernel/store/layout.js';
import { TEMP_PREFIX, writeFileAtomic } from '../../kernel/store/write.js';

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
    await writeFileAtomic(join(templates, '.gitkeep'), '', { inside: root });
    created.push(`${TEMPLATES_DIR}/`);
  }
  const gitignore = join(root, '.gitignore');
  const line = `${CACHE_DIR}/`;
  // A write killed mid-way leaves a temporary file (the next write removes it): never committed.
  // Earlier versions named them NAME.md.<number> and ignored that pattern, which hid users' files
  // such as notes.md.1: that line of memctx's own is replaced.
  const temps = `${TEMP_PREFIX}*`;
  const oldTemps = '*.md.[0-9]*';
  if (!existsSync(gitignore)) {
    await writeFileAtomic(gitignore, `${line}\n${temps}\n`, { inside: root });
    created.push('.gitignore');
  } else {
    const original = readFileSync(gitignore, 'utf8');
    const text = original.split('\n').map((l) => (l.replace(/\r$/, '') === oldTemps ? l.replace(oldTemps, temps) : l)).join('\n');
    const lines = text.split(/\r?\n/).map((l) => l.trim());
    const missing = [
      lines.some((l) => l === line || l === CACHE_DIR || l === `/${line}`) ? undefined : line,
      lines.includes(temps) ? undefined : temps,
    ].filter((l): l is string => l !== undefined);
    if (missing.length || text !== original) {
      await writeFileAtomic(gitignore, missing.length ? `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}${missing.join('\n')}\n` : text, { inside: root });
      created.push('.gitignore');
    }
  }
  if (!existsSync(join(root, INDEX_FILE))) {
    await writeFileAtomic(join(root, INDEX_FILE), await emptyIndex(), { inside: root });
    created.push(INDEX_FILE);
  }
  return created;
}
