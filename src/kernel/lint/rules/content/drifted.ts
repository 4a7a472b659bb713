import { describeDrift } from '../../../drift/drift.js';
import { keyLine } from '../../text.js';
import type { LintRule, Report } from '../../types.js';

const rule: LintRule = {
  id: 'content/drifted',
  description: 'Memory is a hint, not the truth: a memory names the code it is about (`paths:` in its frontmatter — files, folders or globs — else the repository paths it links or names in backticks), and memctx records the commit it was true at (`verified:`) whenever it writes one. Reported: the commits since then that touched those paths (renames followed), naming the paths, how many commits and the latest one\'s subject; a memory whose paths are all gone; a `verified` commit git no longer has or cannot see (a shallow clone): drift unknown, never called fresh. Check the memory against the code, then `memctx verify FILE` records that it holds. Memories without `verified:` and session summaries are not checked.',
  defaultSeverity: 'warning',
  fixable: false,
  async check(ctx) {
    const out: Report[] = [];
    const byPath = new Map(ctx.files.map((f) => [f.path, f]));
    for (const [path, entries] of ctx.outsideAnchors ?? []) {
      const file = byPath.get(path);
      const line = file ? keyLine(file, 'paths') : 1;
      for (const entry of entries) out.push({ file: path, line, column: 1, message: `paths: ${entry} is outside the repository; anchors are paths inside it, relative to its root` });
    }
    for (const [path, drift] of (await ctx.drift) ?? []) {
      const file = byPath.get(path);
      const line = file ? keyLine(file, 'verified') : 1;
      if (drift.state === 'unknown') out.push({ file: path, line, column: 1, message: `cannot tell whether it still holds: ${drift.reason}; check it against the code, then run \`memctx verify ${path}\`` });
      else if (drift.allGone) out.push({ file: path, line, column: 1, message: `every path it is about is gone (${describeDrift(drift)}); update it to the new paths or remove it` });
      else out.push({ file: path, line, column: 1, message: `${describeDrift(drift)}; check it against the code, then run \`memctx verify ${path}\`` });
    }
    return out;
  },
};

export default rule;
