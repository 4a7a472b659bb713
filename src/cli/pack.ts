import { Option, type Command } from 'commander';
import { EXIT_OK, MemctxError } from '../store/errors.js';
import type { MemoryFile } from '../store/types.js';
import type { PackFile } from '../pack/types.js';
import type { Context } from './context.js';
import type { Runner } from './run.js';

const ENCODING_CHOICES = ['o200k_base', 'cl100k_base'];
const FORMAT_CHOICES = ['markdown', 'xml', 'json'];
const PROFILE_CHOICES = ['rehydrate', 'handoff-complete', 'handoff-specialist', 'handoff-continuation', 'handoff-emergency'];
export const DEFAULT_BUDGET = 25_000;

interface PackFlags {
  budget?: string;
  window?: string;
  model?: string;
  task?: string;
  focus?: string[];
  profile?: string;
  format: string;
  encoding: string;
  out?: string;
}

export function register(program: Command, run: Runner): void {
  program
    .command('pack')
    .description('score every memory file and pack the best into one bundle that fits a token budget')
    .option('--budget <tokens|percent>', `hard cap on the bundle: tokens, or P% of --window/--model (default: the profile's, else ${DEFAULT_BUDGET})`)
    .option('--window <tokens>', 'context window, for a percentage budget')
    .option('--model <id>', 'take the context window from a model id (claude-…, gpt-4o, gpt-4.1, gpt-5, gemini-2.5, …[1m])')
    .option('--task <text>', 'what the next prompt is about: files it matches score higher')
    .option('--focus <files...>', 'memory files (or paths that memory files mention) to treat as active')
    .addOption(new Option('--profile <name>', 'a preset: budget and files loaded first').choices(PROFILE_CHOICES))
    .addOption(new Option('--format <format>', 'bundle format').choices(FORMAT_CHOICES).default('markdown'))
    .addOption(new Option('--encoding <name>', 'tokenizer encoding').choices(ENCODING_CHOICES).default('o200k_base'))
    .option('--out <file>', 'write the bundle to a file instead of stdout')
    .action(run(runPack));
}

/** Focus entries as memory paths: a file's own path (with or without .md), else the files that mention it. */
function resolveFocus(files: readonly PackFile[], focus: readonly string[]): { paths: string[]; unmatched: string[] } {
  const paths = new Set<string>();
  const unmatched: string[] = [];
  const byPath = new Set(files.map((f) => f.path));
  for (const raw of focus) {
    const entry = raw.replace(/\\/g, '/').replace(/^\.\//, '');
    if (byPath.has(entry)) paths.add(entry);
    else if (byPath.has(`${entry}.md`)) paths.add(`${entry}.md`);
    else {
      const mentioning = files.filter((f) => f.body.includes(entry));
      for (const f of mentioning) paths.add(f.path);
      if (mentioning.length === 0) unmatched.push(raw);
    }
  }
  return { paths: [...paths], unmatched };
}

async function runPack(ctx: Context, flags: PackFlags): Promise<number> {
  const { BudgetError, parseBudget, resolveWindow } = await import('../pack/budget.js');
  const { PROFILES, isProfileName, profilePicks } = await import('../pack/profiles.js');
  const profile = flags.profile && isProfileName(flags.profile) ? PROFILES[flags.profile] : undefined;
  let budget: number;
  try {
    const window = resolveWindow(flags);
    budget = flags.budget !== undefined ? parseBudget(flags.budget, window) : profile?.budget ?? DEFAULT_BUDGET;
  } catch (err) {
    if (err instanceof BudgetError) throw new MemctxError(err.message, { hint: err.hint });
    throw err;
  }
  if (profile?.taskOnly && !flags.task && !flags.focus?.length) {
    throw new MemctxError(`--profile ${profile.name} packs only what the task reaches, and no --task or --focus was given`, { hint: `add --task TEXT or --focus FILE` });
  }
  if (flags.task !== undefined && flags.task.trim() === '') throw new MemctxError('--task is empty', { hint: 'describe the task in a few words, or leave --task out' });

  const root = ctx.memoryDir();
  const { resolve, join } = await import('node:path');
  const { isInside } = await import('../store/paths.js');
  const outPath = flags.out === undefined ? undefined : resolve(ctx.io.cwd, flags.out);
  if (outPath !== undefined) {
    if (isInside(root, outPath) && !isInside(join(root, '.memctx'), outPath)) {
      throw new MemctxError(`--out ${flags.out} is inside the memory directory, where the bundle would be read as a memory file`, { hint: 'write it somewhere else, e.g. --out context.md' });
    }
  }

  const { VERSION } = await import('../version.js');
  const { scanForPack, packText } = await import('../store/pack-cache.js');
  const { readCountCache, writeCountCache } = await import('../store/token-cache.js');
  const { readStats, recordAccess, accessCount } = await import('../store/stats.js');
  const { cachedCounter, contentHash } = await import('../tokens/cache.js');
  const { tokenizerLoaded } = await import('../tokens/count.js');
  const { scoreFiles, hasMarkers } = await import('../pack/score.js');
  const { packBundle } = await import('../pack/select.js');
  const { createProgress } = await import('./ui/progress.js');
  const { displayPath } = await import('./display.js');

  // Files whose stat is unchanged since the last pack come from .memctx/pack-cache.json unread.
  const texts = new Map<string, string>();
  const scan = await scanForPack(root, {
    now: ctx.io.now().getTime(),
    version: VERSION,
    describe: (file) => {
      const text = packText(root, file.path);
      texts.set(file.path, text);
      return { text, hash: contentHash(text), markers: hasMarkers(file.body) };
    },
  });
  for (const problem of scan.problems) ctx.ui.problem({ ...problem, path: displayPath(ctx.io.cwd, join(root, problem.path)) }, 'warning');
  const files = scan.files;
  const encoding = flags.encoding as 'o200k_base' | 'cl100k_base';
  const loadedCache = readCountCache(root, VERSION);
  const counter = cachedCounter(loadedCache.cache, encoding);
  const textOf = (path: string): string => {
    let text = texts.get(path);
    if (text === undefined) {
      text = packText(root, path);
      texts.set(path, text);
    }
    return text;
  };

  // Count what the cache does not know: the long part on a cold cache, with a spinner when slow.
  const tokens: number[] = [];
  const progress = createProgress(ctx, 'counting tokens');
  try {
    for (let i = 0; i < files.length; i++) {
      tokens.push(counter.known(files[i].hash) ?? counter.count(textOf(files[i].path)));
      if (i % 64 === 63) await progress.tick(i + 1, files.length);
    }
  } finally {
    progress.stop();
  }

  const focus = resolveFocus(files, flags.focus ?? []);
  for (const entry of focus.unmatched) ctx.ui.warn(`--focus ${entry} matches no memory file and no file mentions it`);
  const now = ctx.io.now();
  const stats = readStats(root);
  const scores = scoreFiles(files, { now, task: flags.task, focus: focus.paths });
  const picks = profile ? profilePicks(profile, files, { now, accessCount: (p) => accessCount(stats, p) }) : [];
  const result = packBundle({
    files, scores, indexLines: await indexLines(ctx, root, files), budget, format: flags.format as 'markdown' | 'xml' | 'json', encoding, picks, taskOnly: profile?.taskOnly, memctx: ctx.memctx, count: (t) => counter.count(t), tokens, text: (i) => textOf(files[i].path),
  });

  if (outPath !== undefined) {
    const { writeFileAtomic } = await import('../store/write.js');
    try {
      await writeFileAtomic(outPath, result.text);
    } catch (err) {
      throw new MemctxError(`cannot write --out (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, { file: flags.out, hint: 'check that the directory is writable' });
    }
  } else if (!ctx.ui.json) {
    ctx.ui.out(result.text);
  }

  try {
    await scan.save();
    await writeCountCache(root, loadedCache.cache, VERSION);
  } catch (err) {
    ctx.ui.warn(`could not save the pack caches in .memctx/ (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); the next pack reads and counts again`);
  }
  const delivered = result.files.filter((f) => f.tier === 'full').map((f) => f.path);
  try {
    await recordAccess(root, delivered, now);
  } catch (err) {
    ctx.ui.warn(`could not record access counts in .memctx/stats.json (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }

  const out = outPath === undefined ? undefined : displayPath(ctx.io.cwd, outPath);
  if (ctx.ui.json) {
    const { text, ...report } = result;
    ctx.ui.printJson({
      ...report,
      profile: profile?.name ?? null,
      task: flags.task ?? null,
      focus: focus.paths,
      out: out ?? null,
      problems: scan.problems,
      tokenizer: { loaded: tokenizerLoaded(), cacheHits: counter.hits, cacheMisses: counter.misses },
      caches: { tokenCounts: loadedCache.status, files: scan.status },
      ...(outPath === undefined ? { bundle: text } : {}),
    });
  } else if (!ctx.ui.quiet) {
    const { renderPackReport } = await import('./ui/pack-report.js');
    ctx.io.stderr.write(renderPackReport(result, ctx.ui.errChalk, { fileCount: files.length, out }));
  }
  return EXIT_OK;
}

/** MEMORY.md's generated block as it would be rebuilt now, without its markers and blank lines. */
async function indexLines(ctx: Context, root: string, files: readonly PackFile[]): Promise<string[]> {
  const { readIndexFile } = await import('../store/index-file.js');
  const { renderIndexFile, splitIndex, IndexMarkerError } = await import('../memindex/merge.js');
  const { BEGIN_MARKER, END_MARKER } = await import('../memindex/groups.js');
  let text: string;
  try {
    text = renderIndexFile(readIndexFile(root), files as unknown as MemoryFile[]);
  } catch (err) {
    if (!(err instanceof IndexMarkerError)) throw err;
    ctx.ui.warn(`MEMORY.md: ${err.message}; the bundle uses a freshly generated index (run \`memctx index\` after fixing the markers)`);
    text = renderIndexFile(undefined, files as unknown as MemoryFile[]);
  }
  const block = splitIndex(text).block ?? '';
  return block.split(/\r?\n/).filter((line) => line.trim() !== '' && line !== BEGIN_MARKER && line !== END_MARKER);
}
