import { decodeText } from './decode.js';
import { parseMemoryText } from './parse.js';
import { serializeMemoryFile } from './serialize.js';
import type { FileFormat } from './types.js';
import { readRegularFile } from './read-file.js';
import { MAX_FILE_BYTES } from './layout.js';

/** Non-overlapping occurrences of needle in text. */
export function countOccurrences(text: string, needle: string): number {
  if (needle === '') return 0;
  let count = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) count++;
  return count;
}

export interface RawText {
  /** The text with BOM removed and CRLF turned into LF. */
  text: string;
  format: Pick<FileFormat, 'bom' | 'eol'>;
}

/** A file's text in the form edits work on. Throws DecodeFailure for binary or invalid UTF-8. */
export function readRawText(abs: string): RawText {
  const decoded = decodeText(readRegularFile(abs, { maxBytes: MAX_FILE_BYTES, what: 'memory file' }));
  const bom = decoded.charCodeAt(0) === 0xfeff;
  const body = bom ? decoded.slice(1) : decoded;
  const eol = body.includes('\r\n') ? '\r\n' : '\n';
  return { text: eol === '\r\n' ? body.replace(/\r\n/g, '\n') : body, format: { bom, eol } };
}

/**
 * Parse edited text, set its date key and put it back in the original format. Throws ParseFailure
 * when the edited text is not a valid memory file.
 */
export function finishEdit(path: string, raw: RawText, stat: { mtimeMs: number; size: number }, timestamp: string): string {
  const parsed = parseMemoryText(path, raw.text, stat);
  const file = { ...parsed, format: { ...parsed.format, ...raw.format } };
  return serializeMemoryFile(file, { [file.format.dateKey]: timestamp });
}
