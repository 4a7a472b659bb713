import { defaultIo, type Io } from './kernel/cli/context.js';
import { commandName as commandNameIn, runMain, type Commands, type FastEntries, type ParserModules } from './kernel/cli/program.js';

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
  pack: () => import('./commands/pack/cli.js'),
  search: () => import('./commands/search/cli.js'),
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
  output: () => import('./kernel/cli/output.js'),
  run: () => import('./kernel/cli/run.js'),
  start: () => import('./fast/start.js'),
};

/** The command named on the command line, if it is one of ours. */
export const commandName = (argv: string[]): string | undefined => commandNameIn(argv, COMMANDS);

/** Run memctx with these arguments; resolves to the exit code. */
export const main = (argv: string[], given: Io = defaultIo()): Promise<number> => runMain(argv, given, COMMANDS, FAST_ENTRIES, MODULES);
