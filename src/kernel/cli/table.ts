import type { ChalkInstance } from 'chalk';

/**
 * 1,234,567: digits grouped in threes, as `toLocaleString('en-US')` gives for whole numbers but without
 * loading the locale data (about 10 ms on the first call); other numbers still go through it.
 */
export function thousands(x: number): string {
  return Number.isSafeInteger(x) ? String(x).replace(/\B(?=(\d{3})+(?!\d))/g, ',') : x.toLocaleString('en-US');
}

const ANSI = /\u001b\[[0-9;]*m/g;

/** Columns a cell takes on screen: code points, colour codes left out. */
function width(text: string): number {
  return [...text.replace(ANSI, '')].length;
}

/** Left-aligned columns separated by two spaces, padded to the widest cell (coloured cells too); the last unpadded. */
export function renderTable(rows: string[][], chalk: ChalkInstance, header?: string[]): string {
  const all = header ? [header, ...rows] : rows;
  const widths: number[] = [];
  for (const row of all) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, width(cell))));
  const line = (row: string[]) => row.map((cell, i) => (i === row.length - 1 ? cell : cell + ' '.repeat(widths[i] - width(cell)))).join('  ');
  const out = rows.map(line);
  if (header) out.unshift(chalk.bold(line(header)));
  return `${out.join('\n')}\n`;
}
