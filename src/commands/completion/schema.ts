/** `completion`'s argument: the one checker for the shell it writes a script for. */
import * as v from 'valibot';
import { ARG_LABEL, choice, parseInput } from '../../kernel/schema.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

const CompletionOptions = v.strictObject({
  shell: choice(SHELLS, 'the shell to print a completion script for'),
});

/** The shell asked for, checked; a bad one names the argument as `memctx completion <shell>` shows it. */
export function resolveCompletion(input: unknown): Shell {
  return parseInput(CompletionOptions, input, ARG_LABEL).shell;
}
