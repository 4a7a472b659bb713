/**
 * The command lines that run on every message, session or commit, as `init --agent` and `hook install`
 * write them: `status --statusline`, `flush --hook`, `mcp`, `index --staged`, `checkpoint`, after at most `--dir PATH`
 * or `--claude`. main() runs them straight through their command's runner, without commander; any other
 * command line (another option, a typo, `--help`) takes the full parser, which gives the same result.
 */
import type { GlobalOptions } from './context.js';

export type FastEntry = 'statusline' | 'flush-hook' | 'mcp' | 'index-staged' | 'checkpoint';

const FORMS: Array<[string[], FastEntry]> = [
  [['status', '--statusline'], 'statusline'],
  [['flush', '--hook'], 'flush-hook'],
  [['mcp'], 'mcp'],
  [['index', '--staged'], 'index-staged'],
  [['checkpoint'], 'checkpoint'],
];

/** The hot path this command line asks for and its global options, or undefined for the full parser. */
export function fastRoute(argv: string[]): { entry: FastEntry; globals: GlobalOptions } | undefined {
  const globals: GlobalOptions = {};
  let i = 2;
  for (; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--dir' && i + 1 < argv.length) globals.dir = argv[++i];
    else if (arg.startsWith('--dir=')) globals.dir = arg.slice('--dir='.length);
    else if (arg === '--claude') globals.claude = true;
    else break;
  }
  const rest = argv.slice(i);
  const form = FORMS.find(([words]) => words.length === rest.length && words.every((word, k) => word === rest[k]));
  return form && { entry: form[1], globals };
}

/** The first word on the command line that is not a global option (the command's name, if any). */
export function commandWord(argv: string[]): string | undefined {
  for (let i = 2; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') return undefined;
    if (arg === '--dir') i++;
    else if (!arg.startsWith('-')) return arg;
  }
  return undefined;
}
