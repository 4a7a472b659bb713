import { parseMemoryText } from '../../src/kernel/store/parse.js';
import type { MemoryFile } from '../../src/kernel/store/types.js';

export const NOW = new Date('2026-06-15T12:00:00Z');
const HOUR = 3_600_000;

/** Hours before NOW as an ISO date-time. */
export function hoursAgo(hours: number): string {
  return new Date(NOW.getTime() - hours * HOUR).toISOString();
}

/** A parsed memory file from frontmatter fields and a body. */
export function memory(path: string, fields: Record<string, unknown>, body = 'Body text.\n', mtimeMs = 0): MemoryFile {
  const lines = Object.entries(fields).map(([k, v]) => `${k}: ${Array.isArray(v) ? `[${v.join(', ')}]` : String(v)}`);
  const text = `---\n${lines.join('\n')}\n---\n\n${body}`;
  return parseMemoryText(path, text, { mtimeMs, size: text.length });
}
