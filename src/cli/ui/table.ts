import type { ChalkInstance } from 'chalk';

function width(text: string): number {
  return [...text].length;
}

/** Left-aligned columns separated by two spaces; the first column dimmed-free, the last unpadded. */
export function renderTable(rows: string[][], chalk: ChalkInstance, header?: string[]): string {
  const all = header ? [header, ...rows] : rows;
  const widths: number[] = [];
  for (const row of all) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, width(cell))));
  const line = (row: string[]) => row.map((cell, i) => (i === row.length - 1 ? cell : cell + ' '.repeat(widths[i] - width(cell)))).join('  ');
  const out = rows.map(line);
  if (header) out.unshift(chalk.bold(line(header)));
  return `${out.join('\n')}\n`;
}
