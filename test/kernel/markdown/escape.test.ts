import { describe, expect, it } from 'vitest';
import { fenceFor } from '../../../src/kernel/markdown/escape.js';

describe('fenceFor', () => {
  it('is one backtick longer than the longest run of three or more in the text, else three', () => {
    expect(fenceFor('')).toBe('```');
    expect(fenceFor('a `b` ``c``')).toBe('```');
    expect(fenceFor('```')).toBe('````');
    expect(fenceFor('```js\nx\n```')).toBe('````');
    expect(fenceFor('a`````b```c')).toBe('``````');
    expect(fenceFor('x\n````\n```````')).toBe('````````');
    expect(fenceFor('``\n```')).toBe('````');
  });
});
