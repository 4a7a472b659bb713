/**
 * `memctx pack` and `memctx search`'s bundle (route.ts's mainEntry): the full parser knowing only these
 * two commands, with commander and the runner imported here (not lazily), so that all of it loads from a
 * few minified files instead of the dozens of chunks it shares with every other command in main.js.
 */
import * as commander from 'commander';
import { defaultIo, type Io } from '../kernel/cli/context.js';
import * as pack from '../commands/pack/cli.js';
import { runMain, type Commands, type ParserModules } from '../kernel/cli/program.js';
import * as run from '../kernel/cli/run.js';
import * as search from '../commands/search/cli.js';
import * as output from '../kernel/cli/output.js';
import * as start from './start.js';

const COMMANDS: Commands = { pack: async () => pack, search: async () => search };
const MODULES: ParserModules = { commander: async () => commander, output: async () => output, run: async () => run, start: async () => start };

/** main() for a `pack` or `search` command line. */
export const main = (argv: string[], given: Io = defaultIo()): Promise<number> => runMain(argv, given, COMMANDS, {}, MODULES);
