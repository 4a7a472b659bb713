import { Command, CommanderError } from 'commander';
import { EXIT_USAGE } from '../store/errors.js';
import { defaultIo, type Io } from './context.js';
import { createRunner, type RunState } from './run.js';
import { VERSION } from '../version.js';
import * as initCommand from './init.js';
import * as indexCommand from './index-cmd.js';
import * as lsCommand from './ls.js';
import * as showCommand from './show.js';
import * as addCommand from './add.js';
import * as editCommand from './edit.js';
import * as rmCommand from './rm.js';
import * as mvCommand from './mv.js';
import * as packCommand from './pack.js';
import * as searchCommand from './search.js';

/** Every command module: `register(program, run)` adds its command; heavy imports stay inside actions. */
const COMMANDS = [initCommand, indexCommand, lsCommand, showCommand, addCommand, editCommand, rmCommand, mvCommand, packCommand, searchCommand];

export function buildProgram(io: Io, state: RunState): Command {
  const program = new Command('memctx')
    .description("Keep a coding agent's Markdown memory healthy: index, pack, flush, lint and status.")
    .version(VERSION, '-V, --version')
    .option('--dir <path>', 'memory directory (default: MEMCTX_DIR, or the nearest .memory/ walking up)')
    .option('--claude', "use Claude Code's auto-memory directory for the working directory")
    .option('--json', 'machine-readable output on stdout')
    .option('-q, --quiet', 'print only errors')
    .option('--no-color', 'disable colours (NO_COLOR is honoured too)')
    .showHelpAfterError('(run `memctx --help` for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    });
  const run = createRunner(io, state);
  for (const command of COMMANDS) command.register(program, run);
  for (const sub of program.commands) sub.exitOverride();
  return program;
}

/** Run memctx with these arguments; resolves to the exit code. */
export async function main(argv: string[], io: Io = defaultIo()): Promise<number> {
  const state: RunState = { exitCode: 0 };
  const program = buildProgram(io, state);
  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      return err.exitCode === 0 ? 0 : EXIT_USAGE;
    }
    throw err;
  }
  return state.exitCode;
}
