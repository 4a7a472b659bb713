/** Duplicates stopped at write time: a new or edited body compared with the other memories as `content/duplicate` compares them. */
import { EXIT_PROBLEMS, MemctxError } from '../errors.js';
import { duplicateOf, type DuplicateMatch } from './rules/content/duplicate.js';
import type { LintConfig } from './types.js';
import { scanMemoryDir } from '../store/scan.js';

export interface Duplicate extends DuplicateMatch {
  /** True when both are decisions: the new one may replace the old (`supersedes:`). */
  decisions: boolean;
}

/** The memory `body` (for the file `rel`) nearly duplicates, or undefined; nothing when the rule is off. */
export function findDuplicate(root: string, rel: string, body: string, kind: string | undefined, config: LintConfig): Duplicate | undefined {
  if (config.rules['content/duplicate'] === 'off') return undefined;
  const others = scanMemoryDir(root).files.filter((f) => f.path !== rel);
  const match = duplicateOf(body, others, config.thresholds.duplicateSimilarity);
  if (!match) return undefined;
  const other = others.find((f) => f.path === match.path);
  return { ...match, decisions: kind === 'decision' && other?.kind === 'decision' };
}

/** The CLI's refusal: which file it duplicates, how to update that one instead, `--force` to keep both. */
export function duplicateError(rel: string, found: Duplicate, what: 'add' | 'edit'): MemctxError {
  const supersede = found.decisions && what === 'add' ? `, or, if this decision replaces it, add --field supersedes=${found.path}` : '';
  return new MemctxError(`${rel} would nearly duplicate ${found.path} (${found.how}); nothing was written`, {
    file: rel,
    exitCode: EXIT_PROBLEMS,
    hint: `update ${found.path} instead (\`memctx edit ${found.path} --old … --new …\`)${supersede}; --force keeps both`,
  });
}
