import { describe, expect, it } from 'vitest';
import { DecodeFailure, decodeInput, decodeText, firstInvalidUtf8 } from '../../../src/kernel/store/decode.js';
import { MemctxError } from '../../../src/kernel/errors.js';

const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));

describe('firstInvalidUtf8', () => {
  it('is -1 for valid UTF-8 of every length', () => {
    expect(firstInvalidUtf8(bytes('aé€🙂'))).toBe(-1);
    expect(firstInvalidUtf8(new Uint8Array())).toBe(-1);
  });

  it('points at a stray continuation byte, an overlong form, a surrogate, a code point past U+10FFFF and a cut sequence', () => {
    expect(firstInvalidUtf8(bytes('ab', [0x80]))).toBe(2);
    expect(firstInvalidUtf8(bytes('a', [0xc0, 0xaf]))).toBe(1);
    expect(firstInvalidUtf8(bytes('a', [0xe0, 0x80, 0xaf]))).toBe(1);
    expect(firstInvalidUtf8(bytes('é', [0xed, 0xa0, 0x80]))).toBe(2);
    expect(firstInvalidUtf8(bytes([0xf4, 0x90, 0x80, 0x80]))).toBe(0);
    expect(firstInvalidUtf8(bytes('xyz', [0xe2, 0x82]))).toBe(3);
    expect(firstInvalidUtf8(bytes('x', [0xe2, 0x41, 0x41]))).toBe(1);
  });
});

describe('decodeText', () => {
  it('decodes UTF-8 and keeps a byte-order mark', () => {
    expect(decodeText(bytes('Größe\n'))).toBe('Größe\n');
    expect(decodeText(bytes([0xef, 0xbb, 0xbf], 'a'))).toBe('\ufeffa');
  });

  it('refuses a NUL byte as binary data, with its offset and line', () => {
    const err = (() => {
      try {
        decodeText(bytes('one\ntwo\nth', [0], 'ree'));
      } catch (e) {
        return e as DecodeFailure;
      }
    })();
    expect(err).toBeInstanceOf(DecodeFailure);
    expect(err).toMatchObject({ message: 'binary data (a NUL byte at offset 10), not a text file', line: 3, hint: 'memory files must be UTF-8 Markdown; move or delete this file' });
  });

  it('refuses invalid UTF-8 with the byte offset and line', () => {
    expect(() => decodeText(bytes('a\nb\n', [0xff]))).toThrow(expect.objectContaining({ message: 'invalid UTF-8 (byte offset 4)', line: 3, hint: 're-save the file as UTF-8' }));
  });
});

describe('decodeInput', () => {
  it('returns the text of valid input', () => {
    expect(decodeInput(bytes('body'), '--body-file notes.txt')).toBe('body');
  });

  it('turns a decode failure into a usage error naming the input and the line', () => {
    let caught: unknown;
    try {
      decodeInput(bytes('ok\n', [0xc3]), 'stdin');
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(MemctxError);
    expect(caught).toMatchObject({ message: 'invalid UTF-8 (byte offset 3); memory files are UTF-8 text', file: 'stdin', line: 2, hint: 'give a UTF-8 text file without NUL bytes', exitCode: 2 });
  });
});
