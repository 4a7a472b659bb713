import type { MemoryFile } from '../store/types.js';
import { runLint } from './runner.js';
import importanceRange from './rules/frontmatter/importance-range.js';
import invalidDate from './rules/frontmatter/invalid-date.js';
import invalidKind from './rules/frontmatter/invalid-kind.js';
import invalidType from './rules/frontmatter/invalid-type.js';
import required from './rules/frontmatter/required.js';
import type { Finding, LintConfig } from './types.js';

/** The rules that judge one file's frontmatter on its own: what `add` refuses before writing. */
const FRONTMATTER_RULES = [required, invalidType, invalidKind, invalidDate, importanceRange];

/** What lint would report about a new file's frontmatter (warnings too), so a write never creates a finding. */
export async function frontmatterFindings(file: MemoryFile, config: LintConfig, now: Date): Promise<Finding[]> {
  const rules = { ...config.rules };
  for (const rule of FRONTMATTER_RULES) if (rules[rule.id] === 'off') rules[rule.id] = 'warn';
  const result = await runLint({ files: [file], problems: [], config: { ...config, rules }, now }, FRONTMATTER_RULES);
  return result.findings;
}

/**
 * The frontmatter findings a write would add: those of `after` that `before` (the file as it was, for an
 * edit) did not have. An edit may leave a problem it did not make, never add one. Used by `memctx edit` and
 * the memory tool's str_replace and insert alike.
 */
export async function addedFrontmatterFindings(after: MemoryFile, config: LintConfig, now: Date, before?: MemoryFile): Promise<Finding[]> {
  const found = await frontmatterFindings(after, config, now);
  if (before === undefined || found.length === 0) return found;
  const had = new Set((await frontmatterFindings(before, config, now)).map((f) => `${f.ruleId}\0${f.message}`));
  // A file without frontmatter gets one with `updated` on an edit: its missing fields are the problem it had.
  const stamped = (f: Finding) => !before.hasFrontmatter && f.ruleId === 'frontmatter/required';
  return found.filter((f) => !had.has(`${f.ruleId}\0${f.message}`) && !stamped(f));
}
