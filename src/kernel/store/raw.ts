import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { decodeText } from './decode.js';
import { MAX_FILE_BYTES } from './layout.js';
import { readRegularFile } from './read-file.js';

/**
 * The text of a file that failed to parse, for checks that still apply to it (secrets). Undefined
 * for symbolic links, files over the size limit, binary data and invalid UTF-8.
 */
export function readDecodableText(root: string, path: string): string | undefined {
  try {
    const abs = join(root, path);
    const stat = lstatSync(abs);
    if (!stat.isFile() || stat.size > MAX_FILE_BYTES) return undefined;
    return decodeText(readRegularFile(abs, { maxBytes: MAX_FILE_BYTES, inside: root })).replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  } catch {
    return undefined;
  }
}
