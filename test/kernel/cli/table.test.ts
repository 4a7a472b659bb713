import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { renderTable, thousands } from '../../../src/kernel/cli/table.js';

describe('thousands', () => {
  it('groups the digits of whole numbers in threes', () => {
    expect(thousands(0)).toBe('0');
    expect(thousands(999)).toBe('999');
    expect(thousands(1000)).toBe('1,000');
    expect(thousands(1234567)).toBe('1,234,567');
    expect(thousands(-9876543)).toBe('-9,876,543');
  });

  it('gives other numbers to toLocaleString', () => {
    expect(thousands(1234.5)).toBe('1,234.5');
    expect(thousands(2 ** 60)).toBe((2 ** 60).toLocaleString('en-US'));
  });
});

describe('renderTable', () => {
  const plain = new Chalk({ level: 0 });
  const colour = new Chalk({ level: 1 });

  it('pads every column but the last to its widest cell, two spaces apart', () => {
    expect(renderTable([['a', 'bb', 'c'], ['ddd', 'e', 'f']], plain)).toBe('a    bb  c\nddd  e   f\n');
  });

  it('puts a bold header first, counted in the widths', () => {
    expect(renderTable([['x', '1']], plain, ['name', 'n'])).toBe('name  n\nx     1\n');
    expect(renderTable([['x', '1']], colour, ['name', 'n'])).toBe('\u001b[1mname  n\u001b[22m\nx     1\n');
  });

  it('measures code points without colour codes', () => {
    expect(renderTable([[colour.red('ab'), 'z'], ['日本語', 'y'], ['🙂', 'x']], plain)).toBe(`${colour.red('ab')}   z\n日本語  y\n🙂    x\n`);
  });
});
