/**
 * `memctx completion bash|zsh|fish`: a shell completion script for memctx's commands, subcommands
 * and options, generated from the parser itself (all commands are loaded for it, see program.ts).
 */
import type { Command } from 'commander';
import { EXIT_OK } from '../../kernel/errors.js';
import type { Context } from '../../kernel/cli/context.js';
import type { Runner } from '../../kernel/cli/run.js';
import { commandPath } from '../../kernel/cli/help.js';
import { resolveCompletion, type Shell } from './schema.js';

export function register(program: Command, run: Runner): void {
  program
    .command('completion')
    .description('print a shell completion script: eval "$(memctx completion bash)" (or zsh) in your shell\'s startup file; fish: save it to ~/.config/fish/completions/memctx.fish')
    .argument('<shell>', 'bash, zsh or fish')
    .action(run(async (ctx: Context, shell: string) => {
      ctx.ui.out(completionScript(program, resolveCompletion({ shell })));
      return EXIT_OK;
    }));
}

/** Every command below `root` (subcommands too), the root first. */
function allCommands(root: Command): Command[] {
  return [root, ...root.commands.flatMap((c) => (c.name() === 'help' ? [] : allCommands(c)))];
}

const longFlags = (c: Command) => c.options.flatMap((o) => (o.long ? [o.long] : [])).concat('--help');

export function completionScript(root: Command, shell: Shell): string {
  const commands = allCommands(root);
  if (shell === 'fish') return fishScript(commands);
  const valueFlags = [...new Set(commands.flatMap((c) => c.options.filter((o) => o.required || o.optional).flatMap((o) => [o.long, o.short].filter((f): f is string => Boolean(f)))))];
  // Longest paths first, so `hook install` wins over `hook`; positional words after a path still match it.
  const cases = commands
    .map((c) => ({ path: commandPath(c), words: [...c.commands.filter((s) => s.name() !== 'help').map((s) => s.name()), ...longFlags(c)] }))
    .sort((a, b) => b.path.length - a.path.length)
    .map(({ path, words }) => `    ${path === '' ? '""' : `"${path}"|"${path} "*`}) words="${words.join(' ')}" ;;`);
  const body = `# memctx completion (${shell}): eval "$(memctx completion ${shell})"
${shell === 'zsh' ? 'autoload -U +X bashcompinit && bashcompinit\n' : ''}_memctx_complete() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" path="" word words="" skip=0 i
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    if ((skip)); then skip=0; continue; fi
    case "$word" in
      ${valueFlags.join('|')}) skip=1 ;;
      -*) ;;
      *) path="\${path:+$path }$word" ;;
    esac
  done
  case "$path" in
${cases.join('\n')}
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _memctx_complete memctx
`;
  return body;
}

function fishScript(commands: Command[]): string {
  const quote = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  const lines = ['# memctx completion (fish): memctx completion fish > ~/.config/fish/completions/memctx.fish'];
  for (const c of commands) {
    const path = commandPath(c);
    const parts = path.split(' ');
    const when = path === '' ? '__fish_use_subcommand' : parts.length === 1 ? `__fish_seen_subcommand_from ${parts[0]}` : `__fish_seen_subcommand_from ${parts[parts.length - 1]}`;
    for (const sub of c.commands) if (sub.name() !== 'help') lines.push(`complete -c memctx -n ${quote(when)} -a ${sub.name()} -d ${quote(sub.description().slice(0, 60))}`);
    for (const o of c.options) if (o.long) lines.push(`complete -c memctx -n ${quote(when)} -l ${o.long.slice(2)}${o.required || o.optional ? ' -r' : ''} -d ${quote(o.description.slice(0, 60))}`);
  }
  return `${lines.join('\n')}\n`;
}
