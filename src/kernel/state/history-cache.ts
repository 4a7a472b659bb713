/**
 * Drift's git history, kept between runs: the `git log` between two commits never changes, so the
 * text of the last one asked for is kept in drift-history.json in the state folder, keyed by its
 * range (HEAD's commit and the base's) and memctx's version. A lint at the same HEAD then asks git
 * for nothing but HEAD; any other range is asked of git and replaces it. Optional: a missing,
 * corrupt or unwritable file only costs the `git log`.
 */
import { readStateJson, stateDir } from './folder.js';
import { isRecord } from '../values.js';
import { writeStateFile } from '../store/write.js';
import { VERSION } from '../version.js';

const HISTORY_FILE = 'drift-history.json';
/** A longer log is not kept (about 100,000 commits of a few files each). */
const MAX_LOG_CHARS = 32 * 1024 * 1024;

export interface HistoryCache {
  /** The log kept for this range, or undefined. */
  get(range: string): string | undefined;
  set(range: string, log: string): void;
  /** Write it when set() gave a new one. Never throws. */
  save(): Promise<void>;
}

export function historyCache(root: string): HistoryCache {
  let kept: { range: string; log: string } | undefined;
  let loaded = false;
  let changed = false;
  const load = () => {
    if (loaded) return kept;
    loaded = true;
    const data = readStateJson(stateDir(root), HISTORY_FILE, MAX_LOG_CHARS * 2);
    if (isRecord(data) && data.version === VERSION && typeof data.range === 'string' && typeof data.log === 'string') kept = { range: data.range, log: data.log };
    return kept;
  };
  return {
    get: (range) => (load()?.range === range ? kept!.log : undefined),
    set(range, log) {
      if (log.length > MAX_LOG_CHARS || load()?.range === range) return;
      kept = { range, log };
      changed = true;
    },
    async save() {
      const dir = changed && kept ? stateDir(root) : undefined;
      if (dir === undefined) return;
      await writeStateFile(dir, HISTORY_FILE, JSON.stringify({ version: VERSION, ...kept })).catch(() => undefined);
      changed = false;
    },
  };
}
