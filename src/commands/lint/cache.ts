import { createHash } from 'node:crypto';
import { readStateFile, stateDir } from '../../kernel/state/folder.js';
import { cacheVersion, keyOf } from '../../kernel/state/stat-cache.js';
import { listEntries, unreadableProblem } from '../../kernel/store/list.js';
import { readMemoryFile, type ReadDetail } from '../../kernel/store/scan.js';
import { writeStateFile } from '../../kernel/store/write.js';
import type { FileProblem, MemoryFile } from '../../kernel/store/types.js';
import type { LintMemo } from '../../kernel/lint/types.js';
import { isRecord } from '../../kernel/values.js';

/**
 * lint's warm path: what rules computed from one file (secret scan, token count, ephemeral content)
 * or from all files (duplicates) is kept in lint-cache.json in the state folder, keyed by each file's stat as the
 * scan cache is, and reused while the file (or every file) is unchanged. Files are still read and
 * parsed: the other rules need their text. A missing, corrupt or other build's cache is ignored.
 */
const LINT_CACHE_FILE = 'lint-cache.json';

interface FileRecord {
  key: string;
  values: Record<string, unknown>;
}

interface CacheData {
  version: string;
  files: Record<string, FileRecord>;
  /** A digest of every scanned path and its key, and what was kept for that whole set. */
  whole?: { stamp: string; values: Record<string, unknown> };
}

export interface LintScan {
  files: MemoryFile[];
  problems: FileProblem[];
  memo: LintMemo;
  /** Write the cache when a rule added to it. Never throws: the cache is optional. */
  save(): Promise<void>;
}

function load(dir: string | undefined, version: string): CacheData | undefined {
  const text = dir === undefined ? undefined : readStateFile(dir, LINT_CACHE_FILE);
  if (text === undefined) return undefined;
  try {
    const data = JSON.parse(text) as Partial<CacheData>;
    if (data.version !== version || !isRecord(data.files)) return undefined;
    return { version, files: data.files, whole: isRecord(data.whole) && typeof data.whole.stamp === 'string' && isRecord(data.whole.values) ? data.whole : undefined };
  } catch {
    return undefined;
  }
}

/**
 * Every memory file under root, parsed (as scanMemoryDir does), with the memo of an earlier run for
 * the files whose stat is unchanged. Files changed in the last moments, symbolic links and unreadable
 * folders are never kept, and nothing is kept for the whole set while there are any.
 */
export function scanForLint(root: string, now: number): LintScan {
  const dir = stateDir(root);
  const version = cacheVersion();
  const old = load(dir, version);
  const files: MemoryFile[] = [];
  const problems: FileProblem[] = [];
  const records = Object.create(null) as Record<string, FileRecord>;
  const stamp = createHash('sha1');
  let stable = true;
  for (const entry of listEntries(root)) {
    if (entry.error) {
      problems.push(unreadableProblem(entry));
      stable = false;
      continue;
    }
    const detail: ReadDetail = {};
    const result = readMemoryFile(root, entry.path, { symlink: entry.symlink, detail });
    if ('message' in result) problems.push(result);
    else files.push(result);
    const { key, racy } = detail.stat && !entry.symlink ? keyOf(detail.stat, now) : { key: undefined, racy: true };
    if (key === undefined || racy) {
      stable = false;
      continue;
    }
    stamp.update(`${entry.path}\0${key}\0`);
    const before = old?.files[entry.path];
    records[entry.path] = { key, values: before?.key === key && isRecord(before.values) ? before.values : {} };
  }
  const current = stable ? stamp.digest('hex') : undefined;
  const whole = current !== undefined && old?.whole?.stamp === current ? old.whole.values : {};
  let dirty = !old;
  const memo: LintMemo = {
    get: (path, name) => records[path]?.values[name],
    set(path, name, value) {
      const record = records[path];
      if (!record) return;
      record.values[name] = value;
      dirty = true;
    },
    getWhole: (name) => whole[name],
    setWhole(name, value) {
      if (current === undefined) return;
      whole[name] = value;
      dirty = true;
    },
  };
  return {
    files,
    problems,
    memo,
    async save() {
      if (!dirty || !dir) return;
      const data: CacheData = { version, files: records, ...(current === undefined ? {} : { whole: { stamp: current, values: whole } }) };
      try {
        await writeStateFile(dir, LINT_CACHE_FILE, JSON.stringify(data));
      } catch {
        // a read-only checkout still works, just without the cache
      }
    },
  };
}
