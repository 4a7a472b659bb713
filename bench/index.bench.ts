import { rmSync } from 'node:fs';
import { generateCorpus } from './corpus.js';
import { fmtMs, fmtRatio, timeMemctx, timeReadFloor, stateFolder } from './measure.js';
import type { BenchSection } from './run.js';

const section: BenchSection = {
  name: 'index',
  async run(work) {
    const big = `${work}/10k/.memory`;
    const bytes = generateCorpus(big, 10_000, { seed: 1 });
    const floor = timeReadFloor(big);
    // Cold: no scan-cache.json in the state folder, every file parsed. The first run also writes MEMORY.md.
    const cold = timeMemctx(['--dir', big, 'index'], { runs: 5, before: () => rmSync(stateFolder(big), { recursive: true, force: true }) });
    // Warm: the cache answers for every unchanged file (the pre-commit hook's usual case).
    timeMemctx(['--dir', big, 'index'], { runs: 1 });
    const index = timeMemctx(['--dir', big, 'index'], { runs: 5 });
    const small = `${work}/200/.memory`;
    generateCorpus(small, 200, { seed: 2 });
    timeMemctx(['--dir', small, 'index'], { runs: 1 });
    const check = timeMemctx(['--dir', small, 'index', '--check'], { runs: 9 });
    const node = timeReadFloor(`${work}/empty-dir-that-does-not-exist`, 9);
    const ratio = index.medianMs / floor.medianMs;
    return [
      { label: `read floor: glob + read 10,000 files (${(bytes / 1e6).toFixed(1)} MB)`, value: fmtMs(floor.medianMs), data: { ...floor, bytes } },
      { label: 'memctx index, 10,000 files, cold (no cache)', value: fmtMs(cold.medianMs), data: { ...cold } },
      { label: 'memctx index cold / read floor', value: fmtRatio(cold.medianMs / floor.medianMs) },
      { label: 'memctx index, 10,000 files, warm (scan cache)', value: fmtMs(index.medianMs), data: { ...index } },
      { label: 'memctx index warm / read floor', value: fmtRatio(ratio), goal: '≤ 2×', ok: ratio <= 2 },
      { label: 'node start-up (empty script)', value: fmtMs(node.medianMs), data: { ...node } },
      { label: 'memctx index --check, 200 files', value: fmtMs(check.medianMs), goal: '≤ 250 ms', ok: check.medianMs <= 250, data: { ...check } },
    ];
  },
};

export default section;
