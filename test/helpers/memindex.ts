import { parseMemoryText } from '../../src/kernel/store/parse.js';
import type { MemoryFile } from '../../src/kernel/store/types.js';

/** A MemoryFile from frontmatter entries, as the store would read it. */
export function memoryFile(path: string, fields: Record<string, string | number | boolean> = {}, body = ''): MemoryFile {
  const lines = Object.entries(fields).map(([k, v]) => `${k}: ${typeof v === 'string' ? JSON.stringify(v) : v}`);
  const text = lines.length ? `---\n${lines.join('\n')}\n---\n${body}` : body;
  return parseMemoryText(path, text, { mtimeMs: 0, size: text.length });
}
