/**
 * `memctx pack`'s use case, in steps: scan (the memory files through the pack cache, and their
 * exact token counts) → rank (the task's retrieval, links, supersession, demotions, scores) →
 * select and render (pack/select.ts) → write (--out). Returns a plain result; the CLI (or MCP)
 * renders it. Packing is not reading: no access is recorded (only show, search --open, MCP view).
 */
import { indexLimits } from '../sources/config.js';
import { MemctxError } from '../errors.js';
import type { FileProblem, MemoryFile } from '../store/types.js';
import type { BundleFormat } from './render.js';
import { packBundleParts, type PackResult } from './select.js';
import type { PackFile } from '../rank/types.js';
import { knownTokens, lazyTokens, type FileTokens } from '../rank/file-tokens.js';
import { PROFILES, profilePicks, type Profile, type ProfileName } from './profiles.js';
import type { Retrieval } from '../rank/retrieve.js';
import type { FileScore } from '../rank/score.js';
import { dateByCommits, driftOf, rankFiles } from '../rank/rank.js';
import { VERSION } from '../version.js';
import { readCountCache, writeCountCache } from '../state/token-counts.js';
import { scanCached } from '../rank/scan.js';
import type { BackgroundCounter } from '../tokens/background.js';
import type { CachedCounter } from '../tokens/cache.js';
import { findSecrets, maskSecretsIn, maybeSecret, MAYBE_SECRET_CHECK, secretWarnings } from '../lint/secrets.js';
import type { Drift } from '../drift/drift.js';
import { driftBlock, withDriftBlock } from './drift-block.js';
import { startupCost, type StartupCost } from './startup.js';
import { queryTerms } from '../text/analyse.js';
import { readStats, accessCount } from '../state/stats.js';
import { writeOutputFile } from '../store/write.js';
import { statePlace } from '../state/folder.js';
import { historyCache, type HistoryCache } from '../state/history-cache.js';
import { INDEX_FILE } from '../store/layout.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as indexFile from '../memindex/file.js';
import * as memindexMerge from '../memindex/merge.js';
import * as memindexGroups from '../memindex/groups.js';

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
  /** false: write nothing, caches included (`status --startup` measures the bundle read-only). */
  saveCaches?: boolean;
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
  /** Called as each phase ends, in this order (without a task, count after score), for MEMCTX_TIMING. */
  onPhase?: (phase: PackPhase) => void;
}

type PackPhase = 'scan' | 'count' | 'dates' | 'score' | 'bundle' | 'write' | 'caches' | 'secrets' | 'access';

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
  /** For the SessionStart profile (rehydrate): its tokens by source, against the budget and the hook-output limit. */
  startup?: StartupCost;
}

/** Focus entries as memory paths: a file's own path (with or without .md), else the files that mention it. */
function resolveFocus(files: readonly PackFile[], focus: readonly string[]): string[] {
  if (focus.length === 0) return [];
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
  const warnings: string[] = [];
  const now = deps.now();
  const read = await scanStep(options, deps, now);
  let scanned: Scanned | undefined;
  let ranked: Ranked;
  try {
    // With a task, ranking reads the texts (masked where redacted), so they are counted first; without one,
    // ranking runs while the worker thread is still counting.
    if (options.task !== undefined) scanned = await countStep(options, deps, read);
    ranked = await rankStep(options, deps, read.scan, (path) => scanned!.text(path), now, warnings);
    scanned ??= await countStep(options, deps, read);
  } finally {
    read.background.stop();
  }
  // The SessionStart profile lists drifted memories in one block after the header, inside the budget.
  const block = ranked.profile?.name === 'rehydrate' ? driftBlock(options.format, ranked.drift, options.memctx) : '';
  const reserve = block ? scanned.count(block) : 0;
  const fits = reserve > 0 && reserve * 2 <= options.budget;
  const selected = await selectStep(fits ? { ...options, budget: options.budget - reserve } : options, scanned, ranked, warnings);
  const { result } = selected;
  const parts = fits ? withDriftBlock(result, selected.parts, block, options.budget, scanned.count) : selected.parts;
  deps.onPhase?.('bundle');
  await writeStep(options, parts);
  deps.onPhase?.('write');
  await saveStep(options, scanned, warnings, ranked.history);
  deps.onPhase?.('caches');
  // Files given in full carry their secrets into the bundle: say so, naming the file, line and rule.
  warnings.push(...(await secretsStep(options, scanned, result)));
  deps.onPhase?.('secrets');
  // What pack includes is not a read (only show, search --open and MCP view count): nothing to record.
  deps.onPhase?.('access');
  // Assigned onto the result, not spread: its text stays unjoined until someone reads it.
  return Object.assign(result, {
    profile: ranked.profile?.name ?? null,
    task: options.task ?? null,
    taskTerms: ranked.terms,
    taskIgnored: ranked.taskIgnored,
    focus: ranked.focus.map((path) => scanned.maskedPaths.get(path) ?? path),
    problems: scanned.problems,
    warnings,
    tokenizer: scanned.tokenizer(),
    caches: { tokenCounts: scanned.countCacheStatus, files: scanned.status },
    ...(ranked.profile?.name === 'rehydrate' ? { startup: startupCost(result, ranked.picks, fits ? reserve : 0) } : {}),
  });
}

interface Scanned {
  files: PackFile[];
  problems: FileProblem[];
  /** A file's text as packed (masked with --redact-secrets). */
  text(path: string): string;
  /** A measure of `text(path)`: kept in the pack cache for a text not masked (PackScan.measured). */
  measured(path: string, measure: { id: string; of(text: string): number }): number;
  /** Each file's token count: all counted ahead without a task; with one, counted when selection asks. */
  tokens: FileTokens;
  /** Paths whose secrets were masked. */
  redacted: ReadonlySet<string>;
  /** The secrets found in them. */
  secrets: readonly string[];
  /** Paths holding a secret, masked. */
  maskedPaths: ReadonlyMap<string, string>;
  count(text: string): number;
  /** The text, with the counter told its count (the bundle's count is then derived from its parts). */
  seenAs(text: string, count: number): string;
  status: string;
  countCacheStatus: string;
  tokenizer(): PackActionResult['tokenizer'];
  save(): Promise<void>;
}

interface Read {
  scan: Awaited<ReturnType<typeof scanCached>>;
  background: BackgroundCounter;
  /** Hashes of the texts the background counter was given. */
  queued: ReadonlySet<string>;
  counter: CachedCounter;
  loadedCache: ReturnType<typeof readCountCache>;
}

/**
 * Scan: every memory file (through the pack cache) and its text; without a task, the texts no count is known
 * for go to a worker thread (with one, only the files selection may place are counted, later).
 */
async function scanStep(options: PackOptions, deps: PackDeps, now: Date): Promise<Read> {
  const { root } = options;
  const { cachedCounter } = await import('../tokens/cache.js');
  const loadedCache = readCountCache(root, VERSION);
  const counter = cachedCounter(loadedCache.cache, options.encoding);
  // A cold scan hands the texts no count is known for to a worker thread, which counts while the scan goes on
  // (and, for redaction, tests them with the secret prefilter there, in the time it waits for the scan).
  const { backgroundCounter } = await import('../tokens/background.js');
  const background = backgroundCounter(options.encoding, { minBytes: deps.backgroundCountBytes ?? 1 << 20, secrets: options.redactSecrets });
  const queued = new Set<string>();
  // A task with words to match is a query: the scan keeps no text (each is indexed and prefiltered as it is read).
  const query = options.task !== undefined && queryTerms(options.task).length > 0;
  const onRead = (text: string, hash: string) => {
    if (options.task !== undefined || queued.has(hash) || counter.knows(hash)) return;
    queued.add(hash);
    background.add(hash, text);
  };
  const scan = await scanCached(root, now, onRead, query ? { check: options.redactSecrets ? MAYBE_SECRET_CHECK : undefined } : undefined).catch((err: unknown) => {
    background.stop();
    throw err;
  });
  deps.onPhase?.('scan');
  return { scan, background, queued, counter, loadedCache };
}

/**
 * Count: every file's exact token count (what the worker has not counted, here), after masking secrets where
 * --redact-secrets finds them; with a task, each file's count is left for selection to ask (tokensOnDemand).
 */
async function countStep(options: PackOptions, deps: PackDeps, read: Read): Promise<Scanned> {
  const { root } = options;
  const { scan, background, queued, counter, loadedCache } = read;
  const { tokenizerLoaded } = await import('../tokens/count.js');
  const files: PackFile[] = scan.files;
  const secrets: string[] = [];
  // Redaction (the default): files holding a secret go into the bundle (and are counted) with it masked.
  const redacted = new Map<string, string>();
  // This thread counts what the worker has not taken.
  for (const [hash, n] of await background.counts()) counter.record(hash, n);
  // The prefilter's answer is kept in the pack cache (a warm pack reads no text for it); a text the worker had, it tested there.
  const prefiltered = (hash: string) => (queued.has(hash) ? background.matched.has(hash) : undefined);
  const suspects = options.redactSecrets ? scan.files.filter((f) => scan.checked(f.path, MAYBE_SECRET_CHECK, prefiltered(f.hash))) : [];
  if (suspects.length) {
    const hits = await findSecrets(suspects.map((f) => ({ path: f.path, text: scan.textOf(f.path) })));
    for (const path of new Set(hits.map((h) => h.path))) redacted.set(path, maskSecretsIn(scan.textOf(path), hits.filter((h) => h.path === path).map((h) => h.secret)));
    secrets.push(...hits.map((h) => h.secret));
  }
  // A secret in a file name reaches the bundle through its headers and the index: masked there too.
  const maskedPaths = options.redactSecrets ? await maskedNames(scan.files.map((f) => f.path)) : new Map<string, string>();
  const text = (path: string) => redacted.get(path) ?? scan.textOf(path);
  const countOf = (i: number) => (redacted.has(files[i].path) ? undefined : counter.known(scan.files[i].hash)) ?? counter.count(text(files[i].path));
  let tokens: FileTokens;
  if (options.task !== undefined) tokens = lazyTokens(countOf, (i) => (redacted.size && redacted.has(files[i].path) ? undefined : scan.files[i].bounds), files.length);
  else {
    // Count what the cache does not know: the long part on a cold cache.
    const counts: number[] = [];
    for (let i = 0; i < files.length; i++) {
      counts.push(countOf(i));
      if (i % 64 === 63) await deps.onProgress?.(i + 1, files.length);
    }
    tokens = knownTokens(counts);
  }
  deps.onPhase?.('count');
  return {
    files,
    problems: scan.problems,
    text,
    measured: (path, measure) => (redacted.has(path) ? measure.of(text(path)) : scan.measured(path, measure)),
    tokens,
    redacted: new Set(redacted.keys()),
    secrets,
    maskedPaths,
    count: (t) => counter.count(t),
    seenAs: (t, n) => counter.seenAs(t, n),
    status: scan.status,
    countCacheStatus: loadedCache.status,
    tokenizer: () => ({ loaded: tokenizerLoaded() || background.usedWorker, cacheHits: counter.hits, cacheMisses: counter.misses }),
    save: async () => {
      await scan.save();
      await writeCountCache(root, loadedCache.cache, VERSION, files.length);
    },
  };
}

interface Ranked {
  profile?: Profile;
  task?: string;
  terms: string[];
  taskIgnored: string | null;
  focus: string[];
  scores: FileScore[];
  picks: string[];
  retrieval?: Retrieval;
  /** Memories that drifted, or whose drift is unknown. */
  drift: ReadonlyMap<string, Drift>;
  /** Drift's git log, saved with the other caches. */
  history: HistoryCache;
}

/** Rank: dates, the task's retrieval, focus and links, supersession and demotions, the scores, the profile's picks. */
async function rankStep(options: PackOptions, deps: PackDeps, scan: Read['scan'], text: (path: string) => string, now: Date, warnings: string[]): Promise<Ranked> {
  const { root } = options;
  const files: PackFile[] = scan.files;
  const profile = options.profile ? PROFILES[options.profile] : undefined;

  dateByCommits(root, files, deps.env, deps.commitTimes);
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
  // The same git log lint keeps (drift-history.json): a pack at a HEAD lint has seen asks git for nothing but HEAD.
  const history = historyCache(root);
  const { lines: drifted, drift } = driftOf(root, files, (path) => scan.textOf(path), deps.env, history);
  const { scores, matched, graph, superseded } = rankFiles(files, { now, task, focus: focused, text, drifted });
  const focus = graph ? [...new Set([...focused, ...focused.flatMap((p) => [...(graph.get(p) ?? [])])])] : focused;
  const stats = readStats(root);
  const picks = profile ? profilePicks(profile, files.filter((f) => !superseded.has(f.path)), { now, accessCount: (p) => accessCount(stats, p) }) : [];
  deps.onPhase?.('score');
  return { profile, task, terms, taskIgnored, focus, scores, picks, retrieval: matched?.retrieval, drift, history };
}

/** Each path that holds a secret, masked. */
async function maskedNames(paths: string[]): Promise<Map<string, string>> {
  return maskEach(paths.filter(maybeSecret));
}

/** Each of these texts that holds a secret, masked (one secretlint pass over them all). */
async function maskEach(texts: readonly string[]): Promise<Map<string, string>> {
  const masked = new Map<string, string>();
  const suspects = texts.filter(maybeSecret);
  if (suspects.length === 0) return masked;
  const found = new Map<string, string[]>();
  for (const hit of await findSecrets(suspects.map((text, i) => ({ path: String(i), text })))) found.set(hit.path, [...(found.get(hit.path) ?? []), hit.secret]);
  for (const [i, secrets] of found) masked.set(suspects[Number(i)], maskSecretsIn(suspects[Number(i)], secrets));
  return masked;
}

/** Select and render: the pieces that fit the budget, as one bundle (pack/select.ts). */
async function selectStep(options: PackOptions, scanned: Scanned, ranked: Ranked, warnings: string[]): Promise<{ result: PackResult; parts: readonly string[] }> {
  const { redacted, secrets, maskedPaths } = scanned;
  // A secret in a path, name or description would reach the bundle through a header, the index or a
  // description line: masked there too, before the bundle is rendered and counted.
  const path = (p: string) => maskedPaths.get(p) ?? p;
  const named = maskedPaths.size > 0;
  const files = redacted.size || named
    ? scanned.files.map((f) => (redacted.has(f.path) ? { ...f, path: path(f.path), name: maskSecretsIn(f.name, secrets), description: maskSecretsIn(f.description, secrets) } : maskedPaths.has(f.path) ? { ...f, path: path(f.path) } : f))
    : scanned.files;
  const scores = named ? await maskScores(ranked.scores, path) : ranked.scores;
  const lines = indexLines(options.root, files, warnings, indexFile, memindexMerge, memindexGroups);
  const maskedLines = named ? await maskEach(lines) : undefined;
  return packBundleParts({
    files,
    scores,
    indexLines: maskedLines?.size ? lines.map((line) => maskedLines.get(line) ?? line) : lines,
    budget: options.budget,
    format: options.format,
    encoding: options.encoding,
    picks: named ? ranked.picks.map(path) : ranked.picks,
    focus: named ? ranked.focus.map(path) : ranked.focus,
    taskOnly: ranked.profile?.taskOnly,
    memctx: options.memctx,
    count: scanned.count,
    tokens: scanned.tokens,
    text: (i) => scanned.seenAs(scanned.text(scanned.files[i].path), scanned.tokens.exact(i)),
    plainText: (i) => scanned.text(scanned.files[i].path),
    fullTextBytes: (i, measure) => scanned.measured(scanned.files[i].path, measure),
    retrieval: ranked.retrieval,
  });
}

/** Scores with their paths masked, and the paths their reasons name ("superseded by PATH"). */
async function maskScores(scores: readonly FileScore[], path: (p: string) => string): Promise<FileScore[]> {
  const reasons = await maskEach(scores.flatMap((score) => [score.superseded, score.demoted].filter((r): r is string => r !== undefined)));
  const reason = (r: string) => reasons.get(r) ?? r;
  return scores.map((score) => ({ ...score, path: path(score.path), ...(score.superseded ? { superseded: reason(score.superseded) } : {}), ...(score.demoted ? { demoted: reason(score.demoted) } : {}) }));
}

/** Write: the bundle (in parts) to --out, when given. */
async function writeStep(options: PackOptions, text: readonly string[]): Promise<void> {
  if (options.out === undefined) return;
  try {
    await writeOutputFile(options.out, text, { name: options.out, memoryRoot: options.root });
  } catch (err) {
    if (err instanceof MemctxError) throw err;
    throw new MemctxError(`cannot write --out (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, { file: options.out, hint: 'check that the directory is writable' });
  }
}

async function saveStep({ root, saveCaches }: PackOptions, scanned: Scanned, warnings: string[], history: HistoryCache): Promise<void> {
  if (saveCaches === false) return;
  await history.save();
  const place = statePlace(root);
  if (place.dir === undefined && existsSync(join(root, INDEX_FILE))) {
    warnings.push(`could not cache: ${place.reason ?? 'no state folder'}; the next pack reads and counts again`);
    return;
  }
  try {
    await scanned.save();
  } catch (err) {
    warnings.push(`could not save the pack caches (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); the next pack reads and counts again`);
  }
}

/** Warnings for secrets in what the bundle holds of each file (or which files were masked). */
async function secretsStep(options: PackOptions, scanned: Scanned, result: PackResult): Promise<string[]> {
  if (options.redactSecrets) return scanned.redacted.size ? [`possible secrets masked in ${[...scanned.redacted].map((p) => scanned.maskedPaths.get(p) ?? p).join(', ')}`] : [];
  const given = result.files.filter((f) => f.tier === 'full' || f.tier === 'head' || f.tier === 'passages').map((f) => f.path);
  return secretWarnings(given.map((path) => ({ path, text: scanned.text(path) })));
}

/** MEMORY.md's generated block as it would be rebuilt now (every file, also those listed by hand), without its markers and blank lines. */
function indexLines(
  root: string,
  files: readonly PackFile[],
  warnings: string[],
  store: typeof import('../memindex/file.js'),
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
