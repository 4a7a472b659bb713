/** `memctx index`: rebuild MEMORY.md (taking the lock only when it changes), or with `check` say what differs. */
import { hasPending, planIndex, rebuildIndex, type ReindexResult } from '../../kernel/memindex/reindex.js';
import { diffIndex } from '../../kernel/memindex/merge.js';
import { withMemoryLock } from '../../kernel/store/write.js';

export interface IndexCommandOptions {
  root: string;
  /** Write nothing; report what differs. */
  check?: boolean;
}

export type IndexCommandResult =
  | { check: false; result: ReindexResult; warnings: string[] }
  | { check: true; plan: ReindexResult; missing: string[]; unexpected: string[] };

export async function indexMemory(options: IndexCommandOptions): Promise<IndexCommandResult> {
  const { root } = options;
  if (options.check) {
    const plan = await planIndex(root);
    return { check: true, plan, ...diffIndex(plan.previous, plan.text) };
  }
  // The common case is an index that is already current: find that out without taking the lock.
  let result = await planIndex(root);
  const warnings: string[] = [];
  if (result.changed || hasPending(root)) {
    result = await withMemoryLock(root, () => rebuildIndex(root, {}, (message) => warnings.push(message)));
  }
  return { check: false, result, warnings };
}
