import type { ChalkInstance } from 'chalk';
import { jsonSafe, memoryTextOut } from '../markdown/escape.js';
import { formatLocation, type MemctxError } from '../errors.js';
import type { FileProblem } from '../store/types.js';

import type { Stream } from '../io.js';

export interface UiOptions {
  stdout: Stream;
  stderr: Stream;
  /** Colour levels for each stream (0 = none), from colorLevel. */
  colorOut: 0 | 1 | 2 | 3;
  colorErr: 0 | 1 | 2 | 3;
  quiet: boolean;
  json: boolean;
  /** chalk's Chalk (loadChalk), needed only when a level is above 0. */
  Chalk?: ChalkClass;
}

type ChalkClass = typeof import('chalk').Chalk;

/** The only place that writes to the terminal: results to stdout, diagnostics to stderr. */
export interface Ui {
  chalk: ChalkInstance;
  errChalk: ChalkInstance;
  json: boolean;
  quiet: boolean;
  stderrIsTTY: boolean;
  /** A result line on stdout (suppressed by --quiet and --json). */
  info(text: string): void;
  /** Raw text on stdout, always (generated output, memctx's own coloured renders). */
  out(text: string): void;
  /** A memory file's text on stdout: control characters (escapes, colours included) made visible, TTY or not. */
  memoryText(text: string): void;
  /** A JSON document on stdout. */
  printJson(value: unknown): void;
  warn(text: string): void;
  /** Text on stderr as given (reports, notes); `quietable` ones are dropped by --quiet. */
  note(text: string, options?: { quietable?: boolean }): void;
  problem(problem: FileProblem, severity?: 'error' | 'warning'): void;
  error(err: MemctxError | Error): void;
}

/**
 * chalk, loaded only when one of these colour levels is above 0: its colour detection (node:tty, node:os)
 * costs about 50 M instructions at start-up, more than a hook's own work; without colours the plain
 * stand-in below does what chalk does at level 0.
 */
export async function loadChalk(levels: number[]): Promise<ChalkClass | undefined> {
  return levels.some((level) => level > 0) ? (await import('chalk')).Chalk : undefined;
}

/** chalk's style names (its modifierNames, foregroundColorNames, backgroundColorNames, `visible`). */
const STYLE_NAMES = new Set(
  'reset bold dim italic underline overline inverse hidden strikethrough visible black red green yellow blue magenta cyan white gray grey blackBright redBright greenBright yellowBright blueBright magentaBright cyanBright whiteBright bgBlack bgRed bgGreen bgYellow bgBlue bgMagenta bgCyan bgWhite bgGray bgGrey bgBlackBright bgRedBright bgGreenBright bgYellowBright bgBlueBright bgMagentaBright bgCyanBright bgWhiteBright'.split(' '),
);
const MODEL_NAMES = new Set(['rgb', 'hex', 'ansi256', 'bgRgb', 'bgHex', 'bgAnsi256']);

/** A chalk at level 0, as chalk's own: the instance joins its arguments; a style returns its text ('' once `visible`). */
function plainStyle(kind: 'root' | 'style' | 'visible'): ChalkInstance {
  const call = (...texts: unknown[]): string => {
    if (kind === 'root') return texts.join(' ');
    // chalk's own coercion: '' + text
    return kind === 'visible' ? '' : texts.length === 1 ? '' + (texts[0] as string) : texts.join(' ');
  };
  return new Proxy(call, {
    get(target, key) {
      if (key === 'level') return 0;
      if (typeof key === 'string' && STYLE_NAMES.has(key)) return PLAIN[key === 'visible' || kind === 'visible' ? 'visible' : 'style'];
      if (typeof key === 'string' && MODEL_NAMES.has(key)) return () => PLAIN[kind === 'visible' ? 'visible' : 'style'];
      return Reflect.get(target, key) as unknown;
    },
  }) as unknown as ChalkInstance;
}

const PLAIN: Record<'root' | 'style' | 'visible', ChalkInstance> = {} as Record<'root' | 'style' | 'visible', ChalkInstance>;
for (const kind of ['root', 'style', 'visible'] as const) PLAIN[kind] = plainStyle(kind);

/** A chalk at this level: the plain stand-in at 0, chalk's own (which must be loaded) above. */
function chalkAt(level: UiOptions['colorOut'], Chalk: ChalkClass | undefined): ChalkInstance {
  if (level === 0) return PLAIN.root;
  if (!Chalk) throw new Error('createUi: colours need chalk (loadChalk)');
  return new Chalk({ level });
}

export function createUi(options: UiOptions): Ui {
  const chalk = chalkAt(options.colorOut, options.Chalk);
  const errChalk = chalkAt(options.colorErr, options.Chalk);
  const err = (text: string) => options.stderr.write(`${text}\n`);
  return {
    chalk,
    errChalk,
    json: options.json,
    quiet: options.quiet,
    stderrIsTTY: Boolean(options.stderr.isTTY),
    info(text) {
      if (!options.quiet && !options.json) options.stdout.write(`${text}\n`);
    },
    out(text) {
      options.stdout.write(text);
    },
    memoryText(text) {
      options.stdout.write(memoryTextOut(text));
    },
    printJson(value) {
      options.stdout.write(`${jsonSafe(JSON.stringify(value, null, 2))}\n`);
    },
    warn(text) {
      if (!options.quiet) err(`${errChalk.yellow('warning:')} ${text}`);
    },
    note(text, { quietable = true } = {}) {
      if (!quietable || !options.quiet) options.stderr.write(text);
    },
    problem(problem, severity = 'error') {
      const label = severity === 'error' ? errChalk.red('error:') : errChalk.yellow('warning:');
      err(`${formatLocation(problem.path, problem.line)}: ${label} ${problem.message}`);
      if (problem.hint) err(`  ${errChalk.dim(`hint: ${problem.hint}`)}`);
    },
    error(error) {
      const e = error as MemctxError;
      const where = formatLocation(e.file, e.line);
      err(`memctx: ${errChalk.red('error:')} ${where ? `${where}: ` : ''}${e.message}`);
      if (e.hint) err(`  ${errChalk.dim(`hint: ${e.hint}`)}`);
    },
  };
}
