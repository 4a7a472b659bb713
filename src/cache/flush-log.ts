import { appendFileSync, existsSync, readFileSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { cacheDir } from './dir.js';

const FLUSH_LOG = 'flush.log';
/** The log is cut to its newer half once it grows past this. */
const MAX_LOG_BYTES = 512 * 1024;

/** Append one line to `.memctx/flush.log`, halving the log when it grows too big. Never throws. */
export function appendFlushLog(root: string, line: string): boolean {
  try {
    const dir = cacheDir(root);
    if (!dir) return false;
    const path = join(dir, FLUSH_LOG);
    if (existsSync(path) && statSync(path).size > MAX_LOG_BYTES) {
      const text = readFileSync(path, 'utf8');
      const keep = text.slice(Math.floor(text.length / 2));
      const tmp = `${path}.${process.pid}.tmp`;
      appendFileSync(tmp, keep.slice(keep.indexOf('\n') + 1));
      renameSync(tmp, path);
    }
    appendFileSync(path, `${line.replace(/\n/g, ' ')}\n`);
    return true;
  } catch {
    return false;
  }
}
