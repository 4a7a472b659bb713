import { containment, contentShingles, jaccard, MIN_SHINGLES, similarPairs } from '../../../text/similarity.js';
import type { MemoryFile } from '../../../store/types.js';
import type { LintRule, Report } from '../../types.js';

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

export interface DuplicateMatch {
  path: string;
  /** How alike, in words: "similarity 0.91, threshold 0.85" or "93% of the shorter body is in the other". */
  how: string;
}

/**
 * The memory a new or edited body nearly duplicates, by the rule's measure (the most similar when
 * several do), or undefined. `others` are the other memory files (the one being written left out).
 */
export function duplicateOf(body: string, others: readonly Pick<MemoryFile, 'path' | 'body'>[], threshold: number): DuplicateMatch | undefined {
  const sets = contentShingles([...others.map((f) => f.body), body]);
  const mine = sets[sets.length - 1];
  if (mine.length < MIN_SHINGLES) return undefined;
  let best: (DuplicateMatch & { score: number }) | undefined;
  for (let i = 0; i < others.length; i++) {
    if (sets[i].length < MIN_SHINGLES) continue;
    const similarity = jaccard(mine, sets[i]);
    const contained = similarity >= threshold ? similarity : containment(mine, sets[i]);
    if (similarity < threshold && contained < Math.max(threshold, CONTAINMENT)) continue;
    const score = Math.max(similarity, contained);
    if (best && best.score >= score) continue;
    const how = similarity >= threshold ? `similarity ${similarity.toFixed(2)}, threshold ${threshold}` : `${Math.round(contained * 100)}% of the shorter body is in the other`;
    best = { path: others[i].path, how, score };
  }
  return best && { path: best.path, how: best.how };
}

export default rule;
