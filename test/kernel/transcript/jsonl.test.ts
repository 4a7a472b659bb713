import { describe, expect, it } from 'vitest';
import { parseJsonLines, parseJsonObject, splitLines } from '../../../src/kernel/transcript/jsonl.js';

describe('splitLines', () => {
  it('numbers lines from firstLine, drops a CR at line end, and a final newline starts no line', () => {
    expect(splitLines('a\r\nb\n', 5)).toEqual([
      { line: 5, text: 'a' },
      { line: 6, text: 'b' },
    ]);
    expect(splitLines('')).toEqual([{ line: 1, text: '' }]);
    expect(splitLines('x\n\n')).toEqual([
      { line: 1, text: 'x' },
      { line: 2, text: '' },
    ]);
  });
});

describe('parseJsonObject', () => {
  it('reads a JSON object, trimmed, and nothing else', () => {
    expect(parseJsonObject('  {"a":1}  ')).toEqual({ a: 1 });
    expect(parseJsonObject('[1]')).toBeUndefined();
    expect(parseJsonObject('"text"')).toBeUndefined();
    expect(parseJsonObject('{"a":')).toBeUndefined();
  });
});

describe('parseJsonLines', () => {
  it('keeps the objects with their line numbers and skips blank lines silently', () => {
    expect(parseJsonLines('{"a":1}\n\n  \n{"b":2}\n\n')).toEqual({
      lines: [
        { line: 1, value: { a: 1 } },
        { line: 4, value: { b: 2 } },
      ],
      notes: [],
    });
  });

  it('notes a cut last line as a truncated write', () => {
    expect(parseJsonLines('{"a":1}\n{"b":', 10)).toEqual({ lines: [{ line: 10, value: { a: 1 } }], notes: [{ line: 11, message: 'line 11 is an incomplete JSON line (truncated write?); ignored' }] });
  });

  it('counts other lines that are not JSON objects, naming five of them', () => {
    const text = ['x', '{"ok":1}', '[]', 'y', '{bad', 'z', 'w', 'v', '{"ok":2}'].join('\n');
    expect(parseJsonLines(text).notes).toEqual([{ line: 1, message: '7 lines are not JSON and were skipped (lines 1, 3, 4, 5, 6 and 2 more)' }]);
    expect(parseJsonLines('nope\n{"a":1}').notes).toEqual([{ line: 1, message: '1 line is not JSON and was skipped (line 1)' }]);
  });
});
