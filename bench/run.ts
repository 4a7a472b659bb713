/**
 * `npm run bench`: runs every bench/*.bench.ts section (compiled to dist/bench) and prints one
 * table; the figures are also written to bench/out/results.json. Sections: `npm run bench -- index`.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { REPO } from './measure.js';

export interface BenchRow {
  /** What was measured, e.g. "index, 10,000 files". */
  label: string;
  /** The figure as printed, e.g. "412 ms" or "9.8 MB/s". */
  value: string;
  /** The goal, e.g. "≤ 2× read floor", and whether it was met. */
  goal?: string;
  ok?: boolean;
  /** Raw numbers for the JSON file. */
  data?: Record<string, unknown>;
}

export interface BenchSection {
  name: string;
  run(workDir: string): Promise<BenchRow[]>;
}

const here = dirname(fileURLToPath(import.meta.url));

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const files = readdirSync(here).filter((f) => f.endsWith('.bench.js')).sort();
  const results: Record<string, BenchRow[]> = {};
  const workRoot = join(REPO, 'bench/out/work');
  mkdirSync(workRoot, { recursive: true });
  for (const file of files) {
    const section = (await import(pathToFileURL(join(here, file)).href)).default as BenchSection;
    if (only.length && !only.includes(section.name)) continue;
    process.stderr.write(`bench: ${section.name}…\n`);
    const rows = await section.run(join(workRoot, section.name));
    results[section.name] = rows;
    for (const row of rows) {
      const verdict = row.ok === undefined ? '' : row.ok ? '  ok' : '  MISSED';
      console.log(`${section.name.padEnd(10)} ${row.label.padEnd(58)} ${row.value.padStart(14)}${row.goal ? `  (goal ${row.goal})` : ''}${verdict}`);
    }
  }
  mkdirSync(join(REPO, 'bench/out'), { recursive: true });
  writeFileSync(join(REPO, 'bench/out/results.json'), `${JSON.stringify({ node: process.version, date: new Date().toISOString(), results }, null, 2)}\n`);
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
