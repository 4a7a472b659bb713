/**
 * The schema library's start-up cost, which decided valibot over zod for src/schemas/ (issue 21 item 1):
 * the time to import each in a fresh Node process (median of 9, the order alternated), against `node -e 0`.
 * The CLI commands that check their options through a schema pay this import on every run.
 */
import { spawnSync } from 'node:child_process';
import { fmtMs, median, REPO } from './measure.js';
import type { BenchRow, BenchSection } from './run.js';

function importMs(specifier: string): number {
  const code = `const t=performance.now();import(${JSON.stringify(specifier)}).then(()=>process.stdout.write(String(performance.now()-t)))`;
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd: REPO, encoding: 'utf8', env });
  return Number(r.stdout);
}

const section: BenchSection = {
  name: 'schemas',
  async run() {
    const libs = ['valibot', 'zod', '@valibot/to-json-schema'];
    const times: Record<string, number[]> = Object.fromEntries(libs.map((l) => [l, []]));
    for (let i = 0; i < 9; i++) for (const lib of i % 2 ? [...libs].reverse() : libs) times[lib].push(importMs(lib));
    const rows: BenchRow[] = libs.map((lib) => ({ label: `import ${lib} (fresh process)`, value: fmtMs(median(times[lib])), data: { runsMs: times[lib] } }));
    rows.push({ label: 'zod / valibot import time', value: `${(median(times.zod) / median(times.valibot)).toFixed(1)}×`, data: {} });
    return rows;
  },
};

export default section;
