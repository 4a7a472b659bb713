import { shingles, similarPairs } from '../duplicates.js';
import type { LintRule } from '../types.js';

const rule: LintRule = {
  id: 'content/duplicate',
  description: 'No two memory files say nearly the same thing (Jaccard similarity of word 3-shingles of description and body at or over 0.85); both files are named.',
  defaultSeverity: 'warning',
  fixable: false,
  check(ctx) {
    const files = ctx.files;
    const sets = files.map((f) => shingles(`${f.description}\n${f.body}`));
    const threshold = ctx.thresholds.duplicateSimilarity;
    return similarPairs(sets, threshold).map(({ a, b, similarity }) => {
      const [first, second] = files[a].path < files[b].path ? [files[a], files[b]] : [files[b], files[a]];
      return {
        file: second.path,
        line: second.bodyLine,
        column: 1,
        message: `near-duplicate of ${first.path} (similarity ${similarity.toFixed(2)}, threshold ${threshold}); merge ${second.path} into ${first.path} or remove one`,
      };
    });
  },
};

export default rule;
