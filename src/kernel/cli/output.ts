import { Chalk, type ChalkInstance } from 'chalk';
import { jsonSafe, memoryTextOut } from '../markdown/escape.js';
import { formatLocation, type MemctxError } from '../errors.js';
import type { FileProblem } from '../store/types.js';

import type { Stream } from '../io.js';

export type { Stream };

export interface UiOptions {
  stdout: Stream;
  stderr: Stream;
  /** Colour levels for each stream (0 = none), from colorLevel. */
  colorOut: 0 | 1 | 2 | 3;
  colorErr: 0 | 1 | 2 | 3;
  quiet: boolean;
  json: boolean;
}

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

export function createUi(options: UiOptions): Ui {
  const chalk = new Chalk({ level: options.colorOut });
  const errChalk = new Chalk({ level: options.colorErr });
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
