/**
 * The command lines that run on every message, session or commit, as `init --agent` and `hook install`
 * write them: `status --statusline`, `flush --hook`, `mcp`, `index --staged`, `checkpoint`, after at most `--dir PATH`
 * or `--claude`. main() runs them straight through their command's runner, without commander; any other
 * command line (another option, a typo, `--help`) takes the full parser, which gives the same result.
 */
import type { GlobalOptions } from './context.js';
import { SUMMARY_AGENTS } from '../summary/summarizers.js';

export type FastEntry = 'statusline' | 'flush-hook' | 'mcp' | 'index-staged' | 'checkpoint';

const FORMS: Array<[string[], FastEntry, Record<string, string>?]> = [
  [['status', '--statusline'], 'statusline'],
  [['flush', '--hook'], 'flush-hook'],
  // init --summarize-with: the agent asked in the background after the offline summary
  ...SUMMARY_AGENTS.map((agent): [string[], FastEntry, Record<string, string>] => [['flush', '--hook', '--summarize-with', agent], 'flush-hook', { summarizeWith: agent }]),
  [['mcp'], 'mcp'],
  [['index', '--staged'], 'index-staged'],
  [['checkpoint'], 'checkpoint'],
];

/** The hot path this command line asks for, its global options and its flags, or undefined for the full parser. */
export function fastRoute(argv: string[]): { entry: FastEntry; globals: GlobalOptions; flags?: Record<string, string> } | undefined {
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
  return form && { entry: form[1], globals, ...(form[2] ? { flags: form[2] } : {}) };
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
