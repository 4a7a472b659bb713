/**
 * The frame of a binary state file that is read whole (table.ts's stat-keyed caches, token-counts.ts):
 * MAGIC (the file's kind and format), the JSON head's length and a CRC-32 of everything after the
 * checksum (4 bytes each), the head, then the body from the next multiple of 8 bytes. A file cut short
 * or changed anywhere after its magic is not trusted.
 */

/** CRC-32 of the bytes, with node:zlib loaded on the first checksum: a hook that reads no framed file never loads it (about 7 M instructions). */
const crc32 = (bytes: Uint8Array): number => process.getBuiltinModule('node:zlib').crc32(bytes);

/** The bytes of a file: `magic`, the head as JSON, then the body's parts one after another. */
export function frame(magic: Buffer, head: unknown, body: readonly Uint8Array[]): Buffer {
  const fixed = magic.length + 8;
  const json = Buffer.from(JSON.stringify(head), 'utf8');
  const top = Buffer.alloc(bodyStart(fixed, json.length));
  magic.copy(top);
  top.writeUInt32LE(json.length, magic.length);
  json.copy(top, fixed);
  const out = Buffer.concat([top, ...body]);
  out.writeUInt32LE(crc32(out.subarray(fixed)), magic.length + 4);
  return out;
}

/** A framed file's head (parsed JSON) and where its body starts; undefined when the magic, the checksum or the head is wrong. */
export function unframe(bytes: Uint8Array, magic: Buffer): { head: unknown; start: number } | undefined {
  const fixed = magic.length + 8;
  if (bytes.length < fixed || !Buffer.from(bytes.buffer, bytes.byteOffset, magic.length).equals(magic)) return undefined;
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const jsonBytes = view.readUInt32LE(magic.length);
  if (fixed + jsonBytes > view.length || crc32(view.subarray(fixed)) !== view.readUInt32LE(magic.length + 4)) return undefined;
  try {
    return { head: JSON.parse(view.toString('utf8', fixed, fixed + jsonBytes)) as unknown, start: bodyStart(fixed, jsonBytes) };
  } catch {
    return undefined; // its length was changed: the checksum covers what follows it
  }
}

const bodyStart = (fixed: number, jsonBytes: number) => Math.ceil((fixed + jsonBytes) / 8) * 8;
