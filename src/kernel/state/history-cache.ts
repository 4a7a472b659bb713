/**
 * Drift's git history, kept between runs: the `git log` between two commits never changes, so the
 * logs a run asked for (the range from HEAD's commit to the base's, renames detected) are kept in
 * drift-history.json in the state folder, keyed by what they
 * cover, with memctx's version, and lint's answer from them (keyed by a digest of all it read). `lint` and `pack` read and write the same file: a run at the same
 * HEAD asks git for nothing but HEAD, and one after new commits on top of it only for those. A run that asks git for a new log replaces the file with the
 * logs it used, so it never grows. Optional: a missing, corrupt or unwritable file only costs the `git log`.
 */
import { readStateJson, stateDir } from './folder.js';
import { isRecord } from '../values.js';
import { openScratchFile, writeStateFile } from '../store/write.js';
import { VERSION } from '../version.js';

const HISTORY_FILE = 'drift-history.json';
/** Longer logs are not kept (about 100,000 commits of a few files each). */
const MAX_LOG_CHARS = 32 * 1024 * 1024;

export interface HistoryCache {
  /** The log kept under this key, or undefined. */
  get(range: string): string | undefined;
  set(range: string, log: string): void;
  /** Every log kept by the last run (not kept for the next unless get() or set() uses it). */
  kept(): ReadonlyMap<string, string>;
  /** Write the logs this run used, when set() gave a new one. Never throws. */
  save(): Promise<void>;
  /** A new file with no name in the state folder, open for reading and writing (git writes a log there), or undefined. */
  scratch(): number | undefined;
}

function readLogs(root: string): Map<string, string> {
  const logs = new Map<string, string>();
  const data = readStateJson(stateDir(root), HISTORY_FILE, MAX_LOG_CHARS * 2);
  if (!isRecord(data) || data.version !== VERSION || !isRecord(data.logs)) return logs;
  for (const [range, log] of Object.entries(data.logs)) if (typeof log === 'string') logs.set(range, log);
  return logs;
}

export function historyCache(root: string): HistoryCache {
  let kept: Map<string, string> | undefined;
  const used = new Map<string, string>();
  let size = 0;
  let changed = false;
  const use = (range: string, log: string) => {
    if (!used.has(range)) size += log.length;
    used.set(range, log);
  };
  return {
    get(range) {
      const log = (kept ??= readLogs(root)).get(range);
      if (log !== undefined) use(range, log);
      return log;
    },
    set(range, log) {
      if ((kept ??= readLogs(root)).get(range) !== log) changed = true;
      use(range, log);
    },
    kept: () => (kept ??= readLogs(root)),
    async save() {
      const dir = changed && size <= MAX_LOG_CHARS ? stateDir(root) : undefined;
      if (dir === undefined) return;
      await writeStateFile(dir, HISTORY_FILE, JSON.stringify({ version: VERSION, logs: Object.fromEntries(used) })).catch(() => undefined);
      changed = false;
    },
    scratch() {
      const dir = stateDir(root);
      return dir === undefined ? undefined : openScratchFile(dir);
    },
  };
}
