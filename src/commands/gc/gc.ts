/** `memctx gc`: the archival candidates, and with `apply` their move to archive/ and a re-index. */
import { archiveCandidates, type ArchiveCandidate, type ArchiveThresholds } from '../../kernel/lifecycle/archive.js';
import { archivePath, moveToArchive, type ArchiveMove } from '../../kernel/store/archive.js';
import { scanMemoryDir } from '../../kernel/store/scan.js';
import { readAccessTimes } from '../../kernel/state/stats.js';
import { writeAndReindex } from '../../kernel/memindex/reindex.js';

export interface GcOptions {
  root: string;
  thresholds: Partial<ArchiveThresholds>;
  apply: boolean;
}

export interface GcDeps {
  now: () => Date;
  /** A problem that did not stop the command (a re-index that failed after the moves). */
  warn: (message: string) => void;
}

type GcMove = ArchiveMove & Pick<ArchiveCandidate, 'reason' | 'rule'>;

export type GcResult =
  | { apply: false; candidates: (ArchiveCandidate & { to: string })[] }
  | { apply: true; moved: GcMove[]; skipped: GcMove[]; reindexed: boolean };

async function candidates(options: GcOptions, deps: GcDeps): Promise<ArchiveCandidate[]> {
  const scan = scanMemoryDir(options.root);
  return archiveCandidates(scan.files, { now: deps.now(), thresholds: options.thresholds, lastAccess: readAccessTimes(options.root) });
}

export async function gc(options: GcOptions, deps: GcDeps): Promise<GcResult> {
  if (!options.apply) return { apply: false, candidates: (await candidates(options, deps)).map((c) => ({ ...c, to: archivePath(c.path) })) };
  const { value: moves, index } = await writeAndReindex(options.root, async () => {
    const found = await candidates(options, deps);
    return found.map((c): GcMove => ({ ...moveToArchive(options.root, c.path), reason: c.reason, rule: c.rule }));
  }, deps.warn);
  return { apply: true, moved: moves.filter((m) => m.moved), skipped: moves.filter((m) => !m.moved), reindexed: index?.changed ?? false };
}
