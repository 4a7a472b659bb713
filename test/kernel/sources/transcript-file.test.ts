import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openTranscriptFile, readTranscriptText } from '../../../src/kernel/sources/transcript-file.js';
import { MemctxError } from '../../../src/kernel/errors.js';
import { removeDir, tempDir } from '../../helpers/cli.js';

const dir = tempDir();
afterAll(() => removeDir(dir));

function backward(text: string, chunk: number): string[] {
  const path = join(dir, `f-${chunk}-${text.length}.txt`);
  writeFileSync(path, text);
  const file = openTranscriptFile(path);
  const chunks: string[][] = [];
  let sawStart = false;
  for (const { lines, atStart } of file.linesBackward(chunk)) {
    chunks.unshift(lines);
    sawStart = atStart;
  }
  file.close();
  expect(sawStart).toBe(true);
  return chunks.flat();
}

describe('reading a transcript backwards', () => {
  const text = ['{"a":1}', 'ünïcödé ✓ line', '', 'x'.repeat(300), 'crlf\r', 'last'].join('\n');
  it('gives every line once, in order, whatever the chunk size (multi-byte characters across chunk edges too)', () => {
    for (const chunk of [1, 2, 3, 7, 64, 4096]) {
      expect(backward(text, chunk)).toEqual(['{"a":1}', 'ünïcödé ✓ line', '', 'x'.repeat(300), 'crlf', 'last']);
      expect(backward(`${text}\n`, chunk)).toEqual(['{"a":1}', 'ünïcödé ✓ line', '', 'x'.repeat(300), 'crlf', 'last']);
    }
  });
  it('gives one empty, at-start step for an empty file', () => {
    expect(backward('', 8)).toEqual([]);
  });
  it('reads the head without cutting a character in half', () => {
    const path = join(dir, 'head.txt');
    writeFileSync(path, 'ab✓cd');
    const file = openTranscriptFile(path);
    expect(file.head(3)).toEqual({ text: 'ab', complete: false });
    expect(file.head(5)).toEqual({ text: 'ab✓', complete: false });
    expect(file.head()).toEqual({ text: 'ab✓cd', complete: true });
    file.close();
  });
});

describe('bad files', () => {
  const expectError = (fn: () => unknown, message: RegExp) => {
    try {
      fn();
    } catch (err) {
      expect(err).toBeInstanceOf(MemctxError);
      expect((err as MemctxError).exitCode).toBe(2);
      expect((err as MemctxError).message).toMatch(message);
      expect((err as MemctxError).file).toBe('shown-name');
      return;
    }
    throw new Error('expected an error');
  };
  it('refuses a missing file, a directory and binary bytes with exit code 2, naming the file', () => {
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'bin'), Buffer.from([0x7b, 0x00, 0xff, 0x10]));
    for (const read of [readTranscriptText, openTranscriptFile]) {
      expectError(() => read(join(dir, 'nope.jsonl'), 'shown-name'), /no such file/);
      expectError(() => read(join(dir, 'sub'), 'shown-name'), /is a directory/);
      expectError(() => read(join(dir, 'bin'), 'shown-name'), /binary file \(a NUL byte at offset 1\)/);
    }
  });
});
