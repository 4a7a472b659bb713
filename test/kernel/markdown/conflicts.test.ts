import { describe, expect, it } from 'vitest';
import { conflictMarkerLines } from '../../../src/kernel/markdown/conflicts.js';

describe('conflictMarkerLines', () => {
  it('finds the opening, base, middle and closing lines of a conflict', () => {
    const text = ['# Notes', '<<<<<<< ours', 'a', '||||||| base', 'b', '=======', 'c', '>>>>>>> theirs', 'end'].join('\n');
    expect(conflictMarkerLines(text)).toEqual([2, 4, 6, 8]);
  });

  it('takes bare markers and CRLF lines', () => {
    expect(conflictMarkerLines('<<<<<<<\r\nx\r\n=======\r\ny\r\n>>>>>>>\r\n')).toEqual([1, 3, 5]);
  });

  it('counts ======= only inside a conflict: alone it underlines a heading', () => {
    expect(conflictMarkerLines('Title\n=======\n\ntext\n')).toEqual([]);
    expect(conflictMarkerLines('<<<<<<< a\nx\n>>>>>>> b\nTitle\n=======\n')).toEqual([1, 3]);
  });

  it('ignores longer or shorter runs and markers not at the line start', () => {
    expect(conflictMarkerLines('<<<<<<<< eight\n<<<<<< six\n <<<<<<< indented\n<<<<<<<x\n')).toEqual([]);
  });

  it('still reports a conflict inside fenced code', () => {
    expect(conflictMarkerLines('```\n<<<<<<< HEAD\n=======\n>>>>>>> main\n```\n')).toEqual([2, 3, 4]);
  });
});
