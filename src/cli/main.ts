import { defaultIo, type Io } from './context.js';
import { commandName as commandNameIn, runMain, type Commands, type FastEntries, type ParserModules } from './program.js';

/**
 * Every command, in help order: `register(program, run)` adds it. Only the module of the command
 * being run is loaded (all of them for help), so each command pays only for its own start-up.
 */
const COMMANDS: Commands = {
  init: () => import('./init.js'),
  index: () => import('./index-cmd.js'),
  ls: () => import('./ls.js'),
  show: () => import('./show.js'),
  add: () => import('./add.js'),
  edit: () => import('./edit.js'),
  rm: () => import('./rm.js'),
  mv: () => import('./mv.js'),
  verify: () => import('./verify.js'),
  pack: () => import('./pack.js'),
  search: () => import('./search.js'),
  status: () => import('./status.js'),
  compact: () => import('./compact.js'),
  flush: () => import('./flush.js'),
  checkpoint: () => import('./checkpoint.js'),
  sessions: () => import('./sessions.js'),
  lint: () => import('./lint.js'),
  gc: () => import('./gc.js'),
  hook: () => import('./hook.js'),
  'merge-index': () => import('./merge-index.js'),
  mcp: () => import('./mcp.js'),
  completion: () => import('./completion.js'),
};

/** The hot paths' entries (cli/fast/route.ts says which command lines take them). */
const FAST_ENTRIES: FastEntries = {
  statusline: () => import('./fast/statusline.js'),
  'flush-hook': () => import('./fast/flush-hook.js'),
  mcp: () => import('./fast/mcp.js'),
  'index-staged': () => import('./fast/index-staged.js'),
  checkpoint: () => import('./fast/checkpoint.js'),
};

const MODULES: ParserModules = {
  commander: () => import('commander'),
  output: () => import('./ui/output.js'),
  run: () => import('./run.js'),
  start: () => import('./fast/start.js'),
};

/** The command named on the command line, if it is one of ours. */
export const commandName = (argv: string[]): string | undefined => commandNameIn(argv, COMMANDS);

/** Run memctx with these arguments; resolves to the exit code. */
export const main = (argv: string[], given: Io = defaultIo()): Promise<number> => runMain(argv, given, COMMANDS, FAST_ENTRIES, MODULES);
