import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateCorpus, rng } from './corpus.js';
import { fmtMs, fmtRatio, timeFn, timeMemctx, timeReadFloor } from './measure.js';
import type { BenchSection } from './run.js';
import { jaccard, shingles, similarPairs } from '../src/kernel/text/similarity.js';

/**
 * Near-duplicates: copies of `count` corpus files with about one word in `every` replaced, written
 * beside them as dup_NNNNN.md (same frontmatter, so the copies are otherwise ordinary memories).
 */
export function addNearDuplicates(dir: string, total: number, count: number, every = 80, seed = 7): void {
  const r = rng(seed);
  for (let k = 0; k < count; k++) {
    const i = 1 + Math.floor((k * total) / count);
    const name = `note_${String(i).padStart(5, '0')}.md`;
    const source = join(dir, i % 10 === 0 ? 'tasks' : '', name);
    const text = readFileSync(source, 'utf8');
    const split = text.indexOf('\n---\n') + 5;
    const body = text.slice(split).replace(/\b[a-z]+\b/g, (w) => (r() < 1 / every ? 'changed' : w));
    writeFileSync(join(dir, `dup_${String(i).padStart(5, '0')}.md`), text.slice(0, split) + body);
  }
}

/** All pairs compared exactly: what duplicate detection must not do at this size. */
function naivePairs(sets: Uint32Array[], threshold: number): number {
  let found = 0;
  for (let a = 0; a < sets.length; a++) for (let b = a + 1; b < sets.length; b++) if (jaccard(sets[a], sets[b]) >= threshold) found++;
  return found;
}

const section: BenchSection = {
  name: 'lint',
  async run(work) {
    const dir = `${work}/2000/.memory`;
    const files = 2000;
    const dups = 40;
    generateCorpus(dir, files - dups, { seed: 3 });
    addNearDuplicates(dir, files - dups, dups);
    const lint = timeMemctx(['--dir', dir, 'lint', '--format', 'json'], { runs: 5 });
    const floor = timeReadFloor(dir, 5);
    // Files over 2,000 bytes may be over 2,000 tokens, so each one is counted exactly.
    const big = `${work}/2000-big/.memory`;
    generateCorpus(big, files - dups, { seed: 4, bytes: 3000 });
    addNearDuplicates(big, files - dups, dups);
    const counted = timeMemctx(['--dir', big, 'lint', '--format', 'json'], { runs: 3 });
    const { scanMemoryDir } = await import('../src/kernel/store/scan.js');
    const scan = scanMemoryDir(dir);
    const sets = scan.files.map((f) => shingles(`${f.description}\n${f.body}`));
    let pairs = 0;
    const filtered = timeFn(() => (pairs = similarPairs(sets, 0.85).length), 5);
    let naiveFound = 0;
    const naive = timeFn(() => (naiveFound = naivePairs(sets, 0.85)), 1);
    return [
      { label: `memctx lint, ${files} files of ~1.5 KB (${dups} near-dups), all rules`, value: fmtMs(lint.medianMs), goal: '≤ 3 s', ok: lint.medianMs <= 3000, data: { ...lint } },
      { label: 'read floor: glob + read the same files', value: fmtMs(floor.medianMs), data: { ...floor } },
      { label: `memctx lint, ${files} files of ~3 KB (all token-counted)`, value: fmtMs(counted.medianMs), goal: '≤ 3 s', ok: counted.medianMs <= 3000, data: { ...counted } },
      { label: `duplicates: prefix-filtered similarity join (${pairs} pairs found)`, value: fmtMs(filtered.medianMs), data: { ...filtered, pairs } },
      { label: `duplicates: naive all pairs (${naiveFound} pairs found)`, value: fmtMs(naive.medianMs), data: { ...naive, pairs: naiveFound } },
      { label: 'duplicates: naive / prefix-filtered', value: fmtRatio(naive.medianMs / filtered.medianMs) },
    ];
  },
};

export default section;
