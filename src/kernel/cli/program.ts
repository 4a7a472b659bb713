/** The full parser behind main(): commander, the known commands' modules, memctx's parse errors. */
import type { Command } from 'commander';
import { EXIT_USAGE, MemctxError } from '../errors.js';
import { closestMatch } from '../text/suggest.js';
import { colorLevel, type ColorLevel, type Io } from './context.js';
import { createUi, loadChalk } from './output.js';
import { createRunner, type RunState, type Runner } from './run.js';
import { VERSION } from '../version.js';
import { commandWord } from './route.js';
import { neutralStatusline } from './statusline.js';
import { addExamples, numericDefaults } from './help.js';

interface CommandModule {
  register(program: Command, run: Runner): void;
}

/** Commands by name, each loading its module. */
export type Commands = Record<string, () => Promise<CommandModule>>;

type CreateUi = typeof createUi;

/** What the parser loads, lazily (not for `--version`, nor commander for the hot paths). */
export interface ParserModules {
  commander(): Promise<typeof import('commander')>;
}

/** The command named on the command line, if it is one of ours. */
function commandName(argv: string[], commands: Commands): string | undefined {
  const word = commandWord(argv);
  return word !== undefined && Object.hasOwn(commands, word) ? word : undefined;
}

async function loadCommands(argv: string[], commands: Commands): Promise<CommandModule[]> {
  const name = commandName(argv, commands);
  // `completion` describes every command, so it needs them all, as help does.
  const loaders = name && name !== 'completion' ? [commands[name]] : Object.values(commands);
  return Promise.all(loaders.map((load) => load()));
}

/**
 * Commander's own parse errors ("error: unknown option '--x'") in memctx's style: `memctx: error: …`
 * and a hint naming the help to read.
 */
function parseErrorText(message: string, argv: string[], io: Io, createUi: CreateUi, known: Commands): string {
  const suggested = /\n\(Did you mean (.+)\?\)\s*$/.exec(message);
  const text = message.replace(/\n\(Did you mean .+\?\)\s*$/, '').replace(/^error:\s*/, '').trim();
  const command = commandName(argv, known);
  const help = command ? `memctx ${command} --help` : 'memctx --help';
  let out = '';
  const ui = createUi({ stdout: io.stdout, stderr: { write: (t: string) => (out += t) }, colorOut: 0, colorErr: parseErrorLevel(argv, io), quiet: false, json: false });
  // (A value outside an option's choices is the schemas' to refuse: no command gives commander choices.)
  const hint = suggested ? `did you mean ${suggestion(suggested[1])}? (\`${help}\` lists the rest)` : `run \`${help}\` for the options and arguments it takes`;
  const error = new MemctxError(text, { hint });
  ui.error(error);
  // With --json, the error is also a JSON document on stdout (as run.ts does for a command's errors).
  if (argv.slice(2, argv.indexOf('--') === -1 ? undefined : argv.indexOf('--')).includes('--json')) ui.printJson(error);
  return out;
}

/** Commander's suggestion ("init", "one of init, lint", "--dry-run") as memctx words: "memctx init", "one of memctx init, memctx lint". */
function suggestion(text: string): string {
  const several = text.startsWith('one of ');
  const words = (several ? text.slice('one of '.length) : text).split(', ').map((w) => (w.startsWith('-') ? w : `memctx ${w}`));
  return several ? `one of ${words.join(', ')}` : words[0];
}

/** The value after `name` in argv (`--dir x` or `--dir=x`), if any. */
function argValue(argv: string[], name: string): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === name) return argv[i + 1];
    if (argv[i].startsWith(`${name}=`)) return argv[i].slice(name.length + 1);
  }
  return undefined;
}

/** What the full parse needs, loaded after the `--version` shortcut. */
interface Loaded {
  commander: typeof import('commander');
  createUi: CreateUi;
  createRunner: typeof import('./run.js').createRunner;
  known: Commands;
}

function buildProgram(io: Io, state: RunState, commands: CommandModule[], loaded: Loaded, quietParseErrors = false, onParseError?: (text: string) => void, argv: string[] = []): Command {
  const program = new loaded.commander.Command('memctx')
    .description("Keep a coding agent's Markdown memory healthy: index, pack, flush, lint and status.")
    .version(VERSION, '-v, --version')
    .option('--dir <path>', 'memory directory (default: MEMCTX_DIR, or the nearest .memory/ walking up)')
    .option('--claude', "use Claude Code's auto-memory directory for the working directory")
    .option('--json', 'machine-readable output on stdout')
    .option('-q, --quiet', 'print only errors')
    .option('--color', 'colours even when the output is not a terminal (FORCE_COLOR=1|2|3 too)')
    .option('--no-color', 'no colours (NO_COLOR and FORCE_COLOR=0 too)')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => (quietParseErrors ? onParseError?.(text) : io.stderr.write(text)),
      outputError: (text) => (quietParseErrors ? onParseError?.(text) : io.stderr.write(parseErrorText(text, argv, io, loaded.createUi, loaded.known))),
    });
  const run = loaded.createRunner(io, state);
  for (const command of commands) command.register(program, run);
  for (const sub of program.commands) sub.exitOverride();
  addExamples(program);
  numericDefaults(program);
  return program;
}

/**
 * `memctx help WORD` for a WORD that is no command: commander would print the general help and exit
 * 0; memctx says so, with the closest command, as for `memctx WORD` (exit 2).
 */
function unknownHelpTopic(argv: string[], program: Command): string | undefined {
  const at = argv.indexOf('help', 2);
  if (at === -1 || commandWord(argv) !== 'help') return undefined;
  const topic = argv.slice(at + 1).find((arg) => !arg.startsWith('-'));
  if (topic === undefined || program.commands.some((c) => c.name() === topic || c.aliases().includes(topic))) return undefined;
  const guess = closestMatch(topic, program.commands.map((c) => c.name()).filter((name) => name !== 'help'));
  return `error: unknown command '${topic}'${guess ? `\n(Did you mean ${guess}?)` : ''}`;
}

/**
 * A parse error on a command line that must never fail: a status line prints a neutral line, a hook
 * (a PreCompact hook that exits 2 blocks compaction) logs the problem; both exit 0. Undefined otherwise.
 */
async function neverFail(argv: string[], io: Io, command: string | undefined, parseError: string, err: Error): Promise<number | undefined> {
  if (command === 'status' && argv.includes('--statusline')) {
    io.stdout.write(`${neutralStatusline()}\n`);
    return 0;
  }
  if (!isHook(argv, command)) return undefined;
  const message = (parseError.split('\n')[0] || err.message).replace(/^error: /, '');
  const { logHookProblem } = await import('../state/flush-log.js');
  const globals = { dir: argValue(argv, '--dir'), claude: argv.includes('--claude') };
  const log = await logHookProblem(message, { cwd: io.cwd, env: io.env, home: io.home, now: io.now, ...globals });
  io.stderr.write(`memctx ${command === 'checkpoint' ? 'checkpoint' : 'flush --hook'}: ${message}${log.logged ? '' : ' (not logged: no memory directory found)'}\n`);
  return 0;
}

/** The colour level of a parse error on stderr (read before commander has parsed --color and --no-color). */
function parseErrorLevel(argv: string[], io: Io): ColorLevel {
  return colorLevel({ color: argv.includes('--no-color') ? false : argv.includes('--color') ? true : undefined }, io.env, io.stderr.isTTY);
}

function isHook(argv: string[], command: string | undefined): boolean {
  return (command === 'flush' && argv.includes('--hook')) || command === 'checkpoint';
}

/** The full parse: commander and the named command's module (all of them for help). */
async function parseAndRun(argv: string[], io: Io, known: Commands, modules: ParserModules, createUi: CreateUi, createRunner: Loaded['createRunner']): Promise<number> {
  const [commander, commands] = await Promise.all([modules.commander(), loadCommands(argv, known)]);
  const state: RunState = { exitCode: 0 };
  const command = commandName(argv, known);
  const quiet = (command === 'status' && argv.includes('--statusline')) || isHook(argv, command);
  let parseError = '';
  const program = buildProgram(io, state, commands, { commander, createUi, createRunner, known }, quiet, (text) => (parseError += text), argv);
  const unknownHelp = unknownHelpTopic(argv, program);
  if (unknownHelp) {
    io.stderr.write(parseErrorText(unknownHelp, argv, io, createUi, known));
    return EXIT_USAGE;
  }
  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (!(err instanceof commander.CommanderError)) throw err;
    if (err.exitCode === 0) return 0;
    return (await neverFail(argv, io, command, parseError, err)) ?? EXIT_USAGE;
  }
  return state.exitCode;
}

/** Run the full parse (commander and the named command's module; all of them for help) on a terminal-safe io. */
export async function runFull(argv: string[], io: Io, known: Commands, modules: ParserModules): Promise<number> {
  // a parse error's ui: chalk only when stderr gets colours
  const Chalk = await loadChalk([parseErrorLevel(argv, io)]);
  return parseAndRun(argv, io, known, modules, (options) => createUi({ ...options, Chalk }), createRunner);
}
