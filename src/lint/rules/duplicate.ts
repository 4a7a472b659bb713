import { contentShingles, similarPairs } from '../../text/similarity.js';
import type { MemoryFile } from '../../store/types.js';
import type { LintRule, Report } from '../types.js';

/** The share of the smaller body found in the other that makes two files duplicates. */
const CONTAINMENT = 0.8;

const rule: LintRule = {
  id: 'content/duplicate',
  description: `No two memory files say nearly the same thing: their bodies (headings and template lines left out) compared as word 3-shingles, a duplicate at Jaccard similarity 0.85 or over (configurable), or when ${CONTAINMENT * 100}% of the smaller body is in the other — so the same fact under another title, lightly edited, is caught. Both files are named.`,
  defaultSeverity: 'warning',
  fixable: false,
  check(ctx) {
    const threshold = ctx.thresholds.duplicateSimilarity;
    const name = `${rule.id}:${threshold}`;
    const kept = ctx.memo?.getWhole(name);
    if (Array.isArray(kept)) return kept as Report[];
    const reports = duplicates(ctx.files, threshold);
    ctx.memo?.setWhole(name, reports);
    return reports;
  },
};

function duplicates(files: MemoryFile[], threshold: number): Report[] {
  const sets = contentShingles(files.map((f) => f.body));
  return similarPairs(sets, threshold, Math.max(threshold, CONTAINMENT)).map(({ a, b, similarity, containment }) => {
    const [first, second] = files[a].path < files[b].path ? [files[a], files[b]] : [files[b], files[a]];
    const how = similarity >= threshold ? `similarity ${similarity.toFixed(2)}, threshold ${threshold}` : `${Math.round(containment * 100)}% of the shorter body is in the other`;
    return {
      file: second.path,
      line: second.bodyLine,
      column: 1,
      message: `near-duplicate of ${first.path} (${how}); merge ${second.path} into ${first.path} or remove one`,
    };
  });
}

export default rule;
