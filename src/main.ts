import { defaultIo, type GlobalOptions, type Io } from './kernel/cli/context.js';
import type { Commands, ParserModules } from './kernel/cli/program.js';
import { commandWord, fastRoute, type FastEntry } from './kernel/cli/route.js';
import { loadModule } from './kernel/load.js';
import { terminalSafeIo } from './kernel/cli/safe-io.js';

type FastEntries = Record<FastEntry, () => Promise<{ run: Runner }>>;

/**
 * Every command, in help order: `register(program, run)` adds it. Only the module of the command
 * being run is loaded (all of them for help), so each command pays only for its own start-up.
 */
const COMMANDS: Commands = {
  init: () => import('./commands/init/cli.js'),
  index: () => import('./commands/index/cli.js'),
  ls: () => import('./commands/ls/cli.js'),
  show: () => import('./commands/show/cli.js'),
  add: () => import('./commands/add/cli.js'),
  edit: () => import('./commands/edit/cli.js'),
  rm: () => import('./commands/rm/cli.js'),
  mv: () => import('./commands/mv/cli.js'),
  verify: () => import('./commands/verify/cli.js'),
  pack: () => own('./commands/pack/cli.js', () => import('./commands/pack/cli.js')),
  search: () => own('./commands/search/cli.js', () => import('./commands/search/cli.js')),
  status: () => import('./commands/status/cli.js'),
  compact: () => import('./commands/compact/cli.js'),
  flush: () => import('./commands/flush/cli.js'),
  checkpoint: () => import('./commands/checkpoint/cli.js'),
  sessions: () => import('./commands/sessions/cli.js'),
  lint: () => import('./commands/lint/cli.js'),
  gc: () => import('./commands/gc/cli.js'),
  hook: () => import('./commands/hook/cli.js'),
  'merge-index': () => import('./commands/merge-index/cli.js'),
  mcp: () => import('./commands/mcp/cli.js'),
  completion: () => import('./commands/completion/cli.js'),
};

type Runner = (io: Io, globals: GlobalOptions, flags?: Record<string, string>) => Promise<number>;
type RunOnce = typeof import('./kernel/cli/run.js').runOnce;

/** One of memctx's own modules for --version or a hot path: required where Node can (kernel/load.ts), else imported. */
const own = <M>(specifier: string, load: () => Promise<M>): Promise<M> => loadModule(specifier, import.meta.url, load);

/** A hot path's runner: its command's module, loaded beside the runner (no commander), and what to run of it. */
function hotPath<M>(load: () => Promise<M>, runnerOf: (module: M, runOnce: RunOnce) => Runner): () => Promise<{ run: Runner }> {
  return async () => {
    const [{ runOnce }, module] = await Promise.all([own('./kernel/cli/run.js', () => import('./kernel/cli/run.js')), load()]);
    return { run: runnerOf(module, runOnce) };
  };
}

/** The hot paths' runners (kernel/cli/route.ts says which command lines take them). */
const FAST_ENTRIES: FastEntries = {
  // The status line runs after every message: its own runner, without the context's ui (chalk).
  statusline: async () => {
    const { runStatusline } = await own('./commands/status/statusline.js', () => import('./commands/status/statusline.js'));
    return { run: (io, globals) => runStatusline(io, globals, { statusline: true }) };
  },
  // The hook's command lines carry only the defaults: their request is settled without the schema (valibot).
  'flush-hook': hotPath(() => own('./commands/flush/hook.js', () => import('./commands/flush/hook.js')), ({ hookRequest, runFlushHook }, runOnce) => (io, globals, flags) => runOnce(io, globals, runFlushHook, hookRequest(flags?.summarizeWith))),
  mcp: hotPath(() => own('./commands/mcp/cli.js', () => import('./commands/mcp/cli.js')), ({ runMcp }, runOnce) => (io, globals) => runOnce(io, globals, runMcp)),
  'index-staged': hotPath(() => own('./commands/index/cli.js', () => import('./commands/index/cli.js')), ({ runIndex }, runOnce) => (io, globals) => runOnce(io, globals, runIndex, { staged: true })),
  checkpoint: hotPath(() => own('./commands/checkpoint/cli.js', () => import('./commands/checkpoint/cli.js')), ({ CHECKPOINT_DEFAULTS, runCheckpoint }, runOnce) => (io, globals) => runOnce(io, globals, runCheckpoint, { ...CHECKPOINT_DEFAULTS })),
};

const MODULES: ParserModules = {
  commander: () => import('commander'),
};

/** The command named on the command line, if it is one of ours. */
export function commandName(argv: string[]): string | undefined {
  const word = commandWord(argv);
  return word !== undefined && Object.hasOwn(COMMANDS, word) ? word : undefined;
}

/**
 * Run memctx with these arguments; resolves to the exit code. `--version` alone needs neither commander
 * nor a command; the command lines run on every message, session or commit (as `init --agent` and `hook
 * install` write them) go straight to their runner; the rest take the full parser.
 */
export async function main(argv: string[], given: Io = defaultIo()): Promise<number> {
  if (argv.length === 3 && (argv[2] === '--version' || argv[2] === '-v' || argv[2] === '-V')) {
    const { VERSION } = await own('./kernel/version.js', () => import('./kernel/version.js'));
    given.stdout.write(`${VERSION}\n`);
    return 0;
  }
  const io = terminalSafeIo(given);
  const route = fastRoute(argv);
  if (route) return (await FAST_ENTRIES[route.entry]()).run(io, route.globals, route.flags);
  const { runFull } = await own('./kernel/cli/program.js', () => import('./kernel/cli/program.js'));
  return runFull(argv, io, COMMANDS, MODULES);
}
