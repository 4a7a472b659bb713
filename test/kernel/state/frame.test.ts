// state/frame.ts: the frame of a binary state file read whole (table.test.ts and token-counts.test.ts hold the files framed with it).
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { frame, unframe } from '../../../src/kernel/state/frame.js';

const MAGIC = Buffer.from('memctx test frame 1\n', 'latin1');

describe('frame and unframe', () => {
  it('write the magic, the head length, a checksum of the rest, the head and the body from the next multiple of 8', () => {
    const bytes = frame(MAGIC, { v: 'x' }, [Buffer.from('ab'), Buffer.from('cd')]);
    const head = '{"v":"x"}';
    const start = Math.ceil((MAGIC.length + 8 + head.length) / 8) * 8;
    expect(bytes.subarray(0, MAGIC.length)).toEqual(MAGIC);
    expect(bytes.readUInt32LE(MAGIC.length)).toBe(head.length);
    expect(bytes.readUInt32LE(MAGIC.length + 4)).toBe(crc32(bytes.subarray(MAGIC.length + 8)));
    expect(bytes.toString('utf8', MAGIC.length + 8, MAGIC.length + 8 + head.length)).toBe(head);
    expect(bytes.subarray(MAGIC.length + 8 + head.length, start)).toEqual(Buffer.alloc(start - MAGIC.length - 8 - head.length));
    expect(bytes.toString('latin1', start)).toBe('abcd');
    expect(unframe(bytes, MAGIC)).toEqual({ head: { v: 'x' }, start });
  });

  it('trust no other magic, a file cut short, a changed byte or bytes added', () => {
    const bytes = frame(MAGIC, { v: 'x' }, [Buffer.from('body bytes')]);
    expect(unframe(bytes, Buffer.from('memctx test frame 2\n', 'latin1'))).toBeUndefined();
    expect(unframe(Buffer.alloc(0), MAGIC)).toBeUndefined();
    for (let cut = 1; cut < bytes.length; cut++) expect(unframe(bytes.subarray(0, cut), MAGIC)).toBeUndefined();
    for (let at = MAGIC.length; at < bytes.length; at++) {
      const changed = Buffer.from(bytes);
      changed[at] ^= 0x01;
      expect(unframe(changed, MAGIC)).toBeUndefined();
    }
    expect(unframe(Buffer.concat([bytes, Buffer.from([0])]), MAGIC)).toBeUndefined();
  });

  it('read a frame at any offset in its buffer (a pooled read)', () => {
    const bytes = frame(MAGIC, [1, 2], []);
    expect(unframe(Buffer.concat([Buffer.from('xyz'), bytes]).subarray(3), MAGIC)).toEqual({ head: [1, 2], start: bytes.length });
  });
});
