/**
 * `memctx pack`'s use case: read the memory files (through the pack cache), count tokens, score and
 * rank them for the task, select what fits the budget, write the bundle where asked, and record
 * which files were delivered. Returns a plain result; the CLI (or MCP) renders it.
 */
import { indexLimits } from '../sources/config.js';
import { MemctxError } from '../errors.js';
import type { FileProblem, MemoryFile } from '../store/types.js';
import type { BundleFormat } from '../pack/render.js';
import type { PackResult } from '../pack/select.js';
import type { PackFile } from '../pack/types.js';
import type { ProfileName } from '../pack/profiles.js';
import { parseDate } from '../dates.js';

export interface PackOptions {
  /** The memory directory, absolute. */
  root: string;
  budget: number;
  task?: string;
  /** Memory files (or paths memory files mention) to load first. */
  focus?: readonly string[];
  profile?: ProfileName;
  format: BundleFormat;
  encoding: 'o200k_base' | 'cl100k_base';
  /** Absolute path to write the bundle to. */
  out?: string;
  /** The command prefix for the bundle's load hints (`memctx --dir PATH`); default `memctx`. */
  memctx?: string;
  /** Mask every detected secret in the bundle (files are counted as masked). */
  redactSecrets?: boolean;
}

export interface PackDeps {
  now: () => Date;
  env: Record<string, string | undefined>;
  /** Called while counting tokens (the slow part of a cold pack). */
  onProgress?: (done: number, total: number) => Promise<void> | void;
  /** Count on a worker thread, while scanning, once this much uncounted text is read (default 1 MB). */
  backgroundCountBytes?: number;
  /** Last commit times of files with no date of their own (one `git log`). */
  commitTimes?: (root: string, paths: readonly string[], env: Record<string, string | undefined>) => Map<string, number>;
  /** Called as each phase ends, in this order, for MEMCTX_TIMING. */
  onPhase?: (phase: PackPhase) => void;
}

export type PackPhase = 'scan' | 'count' | 'dates' | 'score' | 'bundle' | 'write' | 'caches' | 'secrets' | 'access';

export interface PackActionResult extends PackResult {
  profile: ProfileName | null;
  task: string | null;
  /** The task's terms as matched (stemmed); empty without a task. */
  taskTerms: string[];
  /** Why the task was not used for ranking, when it was not. */
  taskIgnored: string | null;
  /** --focus paths as resolved, and the files they link to. */
  focus: string[];
  problems: FileProblem[];
  warnings: string[];
  tokenizer: { loaded: boolean; cacheHits: number; cacheMisses: number };
  caches: { tokenCounts: string; files: string };
}

/** Focus entries as memory paths: a file's own path (with or without .md), else the files that mention it. */
export function resolveFocus(files: readonly PackFile[], focus: readonly string[]): string[] {
  const paths = new Set<string>();
  const byPath = new Set(files.map((f) => f.path));
  for (const raw of focus) {
    const entry = raw.replace(/\\/g, '/').replace(/^\.\//, '');
    if (byPath.has(entry)) paths.add(entry);
    else if (byPath.has(`${entry}.md`)) paths.add(`${entry}.md`);
    else {
      const mentioning = entry === '' ? [] : files.filter((f) => f.body.includes(entry));
      if (mentioning.length === 0) {
        throw new MemctxError(`--focus ${raw}: no memory file has that path and no memory file mentions it`, { hint: 'give a path inside the memory directory (see `memctx ls`), or leave --focus out' });
      }
      for (const f of mentioning) paths.add(f.path);
    }
  }
  return [...paths];
}

export async function pack(options: PackOptions, deps: PackDeps): Promise<PackActionResult> {
  const { root } = options;
  const { VERSION } = await import('../version.js');
  const { readCountCache, writeCountCache } = await import('../cache/token-counts.js');
  const { readStats, recordAccess, accessCount } = await import('../cache/stats.js');
  const { cachedCounter } = await import('../tokens/cache.js');
  const { tokenizerLoaded } = await import('../tokens/count.js');
  const { scoreFiles } = await import('../pack/score.js');
  const { packBundle } = await import('../pack/select.js');
  const { PROFILES, profilePicks } = await import('../pack/profiles.js');
  const { linkGraph } = await import('../pack/links.js');
  const { supersession } = await import('../lifecycle/supersede.js');
  const { queryTerms } = await import('../text/analyse.js');
  const warnings: string[] = [];
  const now = deps.now();
  const profile = options.profile ? PROFILES[options.profile] : undefined;

  const loadedCache = readCountCache(root, VERSION);
  const counter = cachedCounter(loadedCache.cache, options.encoding);
  // A cold scan hands the texts no count is known for to a worker thread, which counts while the scan goes on.
  const { backgroundCounter } = await import('../tokens/background.js');
  const background = backgroundCounter(options.encoding, { minBytes: deps.backgroundCountBytes ?? 1 << 20 });
  const queued = new Set<string>();
  const { scanCached } = await import('./pack-scan.js');
  const scan = await scanCached(root, now, (text, hash) => {
    if (queued.has(hash) || counter.knows(hash)) return;
    queued.add(hash);
    background.add(hash, text);
  });
  deps.onPhase?.('scan');
  const fileTextOf = scan.textOf;
  for (const [hash, n] of await background.counts()) counter.record(hash, n);
  const files: PackFile[] = scan.files;
  const { findSecrets, maskSecretsIn } = await import('../lint/secrets.js');
  // --redact-secrets: files holding a secret go into the bundle (and are counted) with it masked.
  const redacted = new Map<string, string>();
  if (options.redactSecrets) {
    const hits = await findSecrets(files.map((f) => ({ path: f.path, text: fileTextOf(f.path) })));
    for (const path of new Set(hits.map((h) => h.path))) redacted.set(path, maskSecretsIn(fileTextOf(path), hits.filter((h) => h.path === path).map((h) => h.secret)));
  }
  const textOf = (path: string) => redacted.get(path) ?? fileTextOf(path);

  // Count what the cache does not know: the long part on a cold cache.
  const tokens: number[] = [];
  for (let i = 0; i < files.length; i++) {
    const path = files[i].path;
    tokens.push((redacted.has(path) ? undefined : counter.known(scan.files[i].hash)) ?? counter.count(textOf(path)));
    if (i % 64 === 63) await deps.onProgress?.(i + 1, files.length);
  }
  deps.onPhase?.('count');

  // Files with no date of their own take their last commit time, so a fresh clone does not make them new.
  const undated = files.filter((f) => parseDate(f.updated) === undefined && parseDate(f.created) === undefined);
  if (undated.length > 0) {
    const commitTimes = deps.commitTimes ?? (await import('../sources/git.js')).lastCommitTimes;
    const times = commitTimes(root, undated.map((f) => f.path), deps.env);
    for (const f of undated) if (times.has(f.path)) (f as { committedMs?: number }).committedMs = times.get(f.path);
  }
  deps.onPhase?.('dates');

  let task = options.task;
  let taskIgnored: string | null = null;
  let terms: string[] = [];
  if (task !== undefined) {
    terms = queryTerms(task);
    if (terms.length === 0) {
      taskIgnored = 'the task has no words to match (only common words or punctuation); files are ranked without it';
      warnings.push(`--task: ${taskIgnored}`);
      task = undefined;
    }
  }
  const focused = resolveFocus(files, options.focus ?? []);
  const graph = focused.length ? linkGraph(files) : undefined;
  const focus = [...new Set([...focused, ...focused.flatMap((p) => [...(graph?.get(p) ?? [])])])];
  const { superseded } = supersession(files);
  const stats = readStats(root);
  const scores = scoreFiles(files, { now, task, focus: focused, superseded });
  const picks = profile ? profilePicks(profile, files.filter((f) => !superseded.has(f.path)), { now, accessCount: (p) => accessCount(stats, p) }) : [];
  deps.onPhase?.('score');
  const result = packBundle({
    files, scores, indexLines: indexLines(root, files, warnings, await import('../store/index-file.js'), await import('../memindex/merge.js'), await import('../memindex/groups.js')),
    budget: options.budget, format: options.format, encoding: options.encoding, picks, focus, taskOnly: profile?.taskOnly, memctx: options.memctx,
    count: (t) => counter.count(t), tokens, text: (i) => counter.seenAs(textOf(files[i].path), tokens[i]),
  });
  deps.onPhase?.('bundle');

  if (options.out !== undefined) {
    const { writeOutputFile } = await import('../store/write.js');
    try {
      await writeOutputFile(options.out, result.text, { name: options.out, memoryRoot: root });
    } catch (err) {
      if (err instanceof MemctxError) throw err;
      throw new MemctxError(`cannot write --out (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, { file: options.out, hint: 'check that the directory is writable' });
    }
  }
  deps.onPhase?.('write');
  try {
    await scan.save();
    await writeCountCache(root, loadedCache.cache, VERSION);
  } catch (err) {
    warnings.push(`could not save the pack caches in .memctx/ (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); the next pack reads and counts again`);
  }
  deps.onPhase?.('caches');
  // Files given in full carry their secrets into the bundle: say so, naming the file, line and rule.
  const full = result.files.filter((f) => f.tier === 'full').map((f) => f.path);
  if (!options.redactSecrets) {
    const { secretWarnings } = await import('../lint/secrets.js');
    warnings.push(...(await secretWarnings(full.map((path) => ({ path, text: textOf(path) })))));
  } else if (redacted.size) {
    warnings.push(`--redact-secrets: possible secrets masked in ${[...redacted.keys()].join(', ')}`);
  }
  deps.onPhase?.('secrets');
  try {
    await recordAccess(root, full, now);
  } catch (err) {
    warnings.push(`could not record access counts in .memctx/stats.json (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  deps.onPhase?.('access');
  return {
    ...result,
    profile: profile?.name ?? null,
    task: options.task ?? null,
    taskTerms: terms,
    taskIgnored,
    focus,
    problems: scan.problems,
    warnings,
    tokenizer: { loaded: tokenizerLoaded() || background.usedWorker, cacheHits: counter.hits, cacheMisses: counter.misses },
    caches: { tokenCounts: loadedCache.status, files: scan.status },
  };
}

/** MEMORY.md's generated block as it would be rebuilt now (every file, also those listed by hand), without its markers and blank lines. */
function indexLines(
  root: string,
  files: readonly PackFile[],
  warnings: string[],
  store: typeof import('../store/index-file.js'),
  merge: typeof import('../memindex/merge.js'),
  groups: typeof import('../memindex/groups.js'),
): string[] {
  let text: string;
  try {
    text = merge.renderIndexFile(store.readIndexFile(root), files as unknown as MemoryFile[], { ...indexLimits(root), listAll: true });
  } catch (err) {
    if (!(err instanceof merge.IndexMarkerError)) throw err;
    warnings.push(`MEMORY.md: ${err.message}; the bundle uses a freshly generated index (run \`memctx index\` after fixing the markers)`);
    text = merge.renderIndexFile(undefined, files as unknown as MemoryFile[], { ...indexLimits(root), listAll: true });
  }
  const block = merge.splitIndex(text).block ?? '';
  return block.split(/\r?\n/).filter((line) => line.trim() !== '' && line !== groups.BEGIN_MARKER && line !== groups.END_MARKER);
}
