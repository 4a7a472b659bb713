/** Turn a file's bytes into text, refusing binary data and invalid UTF-8 with the line it is on. */
import { MemctxError } from '../errors.js';

export class DecodeFailure extends Error {
  constructor(message: string, readonly line: number | undefined, readonly hint: string) {
    super(message);
    this.name = 'DecodeFailure';
  }
}

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function lineAt(buf: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (buf[i] === 0x0a) line++;
  return line;
}

/** Offset of the first byte that is not part of a valid UTF-8 sequence. */
export function firstInvalidUtf8(buf: Uint8Array): number {
  let i = 0;
  while (i < buf.length) {
    const b = buf[i];
    let need = 0;
    let min = 0;
    if (b < 0x80) { i++; continue; }
    if (b >= 0xc2 && b <= 0xdf) { need = 1; min = 0x80; }
    else if (b >= 0xe0 && b <= 0xef) { need = 2; min = 0x800; }
    else if (b >= 0xf0 && b <= 0xf4) { need = 3; min = 0x10000; }
    else return i;
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = buf[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

export function decodeText(buf: Uint8Array): string {
  const nul = buf.indexOf(0);
  if (nul !== -1) {
    throw new DecodeFailure(`binary data (a NUL byte at offset ${nul}), not a text file`, lineAt(buf, nul), 'memory files must be UTF-8 Markdown; move or delete this file');
  }
  try {
    return decoder.decode(buf);
  } catch {
    const offset = firstInvalidUtf8(buf);
    throw new DecodeFailure(`invalid UTF-8 (byte offset ${offset})`, offset >= 0 ? lineAt(buf, offset) : undefined, 're-save the file as UTF-8');
  }
}

/** Bytes given as input (--body-file, --from, stdin) as text; binary data or invalid UTF-8 is a usage error naming `label` and the line. */
export function decodeInput(bytes: Uint8Array, label: string): string {
  try {
    return decodeText(bytes);
  } catch (err) {
    if (err instanceof DecodeFailure) throw new MemctxError(`${err.message}; memory files are UTF-8 text`, { file: label, line: err.line, hint: 'give a UTF-8 text file without NUL bytes' });
    throw err;
  }
}
