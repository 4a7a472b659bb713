/**
 * Shell commands in a transcript: the command a shell-like tool call ran, split into simple
 * commands (with the folder each ran in), and what they did that a session summary reports — the
 * files they moved, copied, removed or wrote (`mv`, `git mv`, `cp`, `rm`, `git rm`, `>`), the
 * commits, pushes and pull requests they made. Pure: text in, facts out.
 */
import { posix } from 'node:path';
import { isRecord } from '../values.js';
import type { TranscriptItem } from './types.js';

const SHELL_TOOLS = /^(?:bash|shell|shell_command|exec_command|local_shell|run_shell_command|terminal|execute_command|container\.exec)$/i;

/** The command a shell-like call ran (a string, or an argv whose `bash -lc SCRIPT` form gives the script). */
function commandOf(input: unknown): string | undefined {
  if (typeof input === 'string') return input;
  if (!isRecord(input)) return undefined;
  const c = input.command ?? input.cmd;
  if (typeof c === 'string') return c;
  if (Array.isArray(c)) {
    const parts = c.filter((x): x is string => typeof x === 'string');
    return parts.length >= 3 && /^-l?c$/.test(parts[1]) ? parts.slice(2).join(' ') : parts.join(' ');
  }
  return undefined;
}

/** The command of a tool call when the tool is a shell. */
export function shellCommand(call: TranscriptItem): string | undefined {
  return SHELL_TOOLS.test(call.toolName ?? '') ? commandOf(call.toolInput) : undefined;
}

export interface SimpleCommand {
  /** Words, quotes removed. */
  words: string[];
  /** Files written by `>`/`>>` redirections. */
  writes: string[];
  /** The folder it ran in, when a `cd` before it said (relative to the session's folder, or absolute). */
  dir?: string;
  /** The text as written. */
  text: string;
}

/** Here-document bodies removed (their text is data, not commands). */
function dropHeredocs(script: string): string {
  const lines = script.split('\n');
  const out: string[] = [];
  let end: string | undefined;
  for (const line of lines) {
    if (end !== undefined) {
      if (line.trim() === end) end = undefined;
      continue;
    }
    out.push(line);
    const m = /<<-?\s*(['"]?)([A-Za-z_][\w-]*)\1/.exec(line);
    if (m) end = m[2];
  }
  return out.join('\n');
}

/** Split a script into simple commands (at `&&`, `||`, `;`, `|`, newlines), tracking `cd`. */
// eslint-disable-next-line complexity -- a shell tokenizer: quotes, escapes, operators, here-documents and cd in one pass
export function simpleCommands(script: string): SimpleCommand[] {
  const out: SimpleCommand[] = [];
  let dir: string | undefined;
  let words: string[] = [];
  let writes: string[] = [];
  let word = '';
  let inWord = false;
  let redirect = false;
  let skip = false;
  let start = 0;
  const text = dropHeredocs(script);
  const endWord = () => {
    if (!inWord) return;
    if (skip) skip = false;
    else if (redirect) {
      writes.push(word);
      redirect = false;
    } else words.push(word);
    word = '';
    inWord = false;
  };
  const endCommand = (at: number) => {
    endWord();
    if (words.length) {
      if (words[0] === 'cd' && words[1]) dir = dir && !words[1].startsWith('/') ? posix.join(dir, words[1]) : words[1];
      else out.push({ words, writes, dir, text: text.slice(start, at).trim() });
    }
    words = [];
    writes = [];
    redirect = false;
    skip = false;
    start = at + 1;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "'" || c === '"') {
      const close = text.indexOf(c, i + 1);
      if (close < 0) break;
      word += text.slice(i + 1, close);
      inWord = true;
      i = close;
    } else if (c === '\\' && i + 1 < text.length) {
      word += text[++i];
      inWord = true;
    } else if (c === '\n' || c === ';' || c === '|' || c === '&') {
      endCommand(i);
      if ((c === '&' || c === '|') && text[i + 1] === c) start = ++i + 1;
    } else if (c === '&' && text[i + 1] === '>') {
      endWord();
    } else if (c === '>') {
      // 2> file and >&2 are not writes a summary reports; 1> and > are
      const fd = inWord && /^\d+$/.test(word) ? word : undefined;
      if (fd !== undefined) {
        word = '';
        inWord = false;
      } else endWord();
      if (text[i + 1] === '>') i++;
      if (text[i + 1] === '&') {
        i++;
        while (i + 1 < text.length && /[\d-]/.test(text[i + 1])) i++;
        continue;
      }
      if (fd !== undefined && fd !== '1') skip = true;
      else redirect = true;
    } else if (c === '<') {
      endWord();
    } else if (/\s/.test(c)) endWord();
    else {
      word += c;
      inWord = true;
    }
  }
  endCommand(text.length);
  return out.map((cmd) => ({ ...cmd, writes: cmd.writes.filter((w) => !w.startsWith('/dev/')) }));
}

/** Shell words that open a clause before a command (`if grep …`, `do make`, `! test …`). */
const LEADING_KEYWORD = /^(?:if|then|else|elif|do|while|until|!|\{|\(|time|sudo|env|command|nohup|exec)$/;
/** Shell words that are never a program: the end of a clause, or a clause that runs nothing by itself (`for x in …`). */
const NOT_A_PROGRAM = /^(?:done|fi|esac|\}|\)|;;|for|case|select|function|in)$/;

/** A simple command's words after shell keywords, `sudo`, `env` and leading VAR=value assignments; none for `done`, `fi`, `for x in …`. */
function programWords(words: string[]): string[] {
  let i = 0;
  while (i < words.length && (/^\w+=/.test(words[i]) || LEADING_KEYWORD.test(words[i]))) i++;
  return i < words.length && NOT_A_PROGRAM.test(words[i]) ? [] : words.slice(i);
}

/** The simple commands of a script that run a program (not `done`, `fi`, a `for` clause). */
export function programCommands(script: string): SimpleCommand[] {
  return simpleCommands(script).filter((c) => programWords(c.words).length > 0);
}

export type FileOp =
  | { kind: 'move'; from: string; to: string }
  | { kind: 'copy'; from: string; to: string }
  | { kind: 'remove'; path: string }
  | { kind: 'write'; path: string };

const looksLikeDir = (path: string, from: string) => path.endsWith('/') || path === '.' || path === '..' || (!posix.basename(path).includes('.') && posix.basename(from).includes('.'));

/** The file operations one simple command made, paths joined to the folder it ran in. */
export function fileOps(cmd: SimpleCommand): FileOp[] {
  const at = (p: string) => (cmd.dir && !p.startsWith('/') && !p.startsWith('~') ? posix.join(cmd.dir, p) : p);
  const ops: FileOp[] = cmd.writes.map((path) => ({ kind: 'write', path: at(path) }));
  let words = programWords(cmd.words);
  if (words[0] === 'git' && (words[1] === 'mv' || words[1] === 'rm')) words = words.slice(1);
  if (words[0] === 'npx' || words[0] === 'uvx') words = words.slice(1);
  const [program, ...rest] = words;
  const args = rest.filter((w) => !w.startsWith('-'));
  const edited = inPlaceEdits(program, rest, args);
  if (edited) return [...ops, ...edited.filter((p) => !/[*?[\]{}$]/.test(p)).map((path): FileOp => ({ kind: 'write', path: at(path) }))];
  if ((program === 'mv' || program === 'cp') && args.length >= 2) {
    const dest = args[args.length - 1];
    const sources = args.slice(0, -1);
    for (const from of sources) {
      const to = sources.length > 1 || looksLikeDir(dest, from) ? posix.join(dest, posix.basename(from)) : dest;
      ops.push({ kind: program === 'mv' ? 'move' : 'copy', from: at(from), to: at(to) });
    }
  } else if (program === 'rm') {
    for (const path of args) ops.push({ kind: 'remove', path: at(path) });
  }
  return ops;
}

/** Formatters that rewrite the files they are given with these flags (`prettier --write`, `gofmt -w`), or always (`black`). */
const FORMATTERS: Record<string, RegExp | true> = { prettier: /^(?:--write|-w)$/, gofmt: /^-w$/, goimports: /^-w$/, black: true, rustfmt: true, 'clang-format': /^-i$/, eslint: /^--fix$/, biome: /^--write$/ };

/** The files a command rewrites in place (`sed -i`, formatters), or undefined when it rewrites none. */
function inPlaceEdits(program: string | undefined, rest: string[], args: string[]): string[] | undefined {
  if (program === 'sed' && rest.some((w) => /^(?:-i|--in-place)/.test(w) || /^-[a-zA-Z]*i/.test(w))) {
    // the script is the first argument unless -e gave it
    return rest.includes('-e') ? args.slice(rest.filter((w) => w === '-e').length) : args.slice(1);
  }
  if (program === 'ruff' && rest[0] === 'format') return args.slice(1);
  const flag = program ? FORMATTERS[program] : undefined;
  if (flag === true || (flag && rest.some((w) => flag.test(w)))) return args.filter((a) => a.includes('.') || a.includes('/'));
  return undefined;
}

export interface GitOutcome {
  kind: 'commit' | 'push' | 'pr';
  text: string;
}

const COMMIT_LINE = /^\[([^\]\s]+)(?: \([^)]*\))? ([0-9a-f]{7,40})\] (.+)$/m;
const PUSH_LINE = /^\s*(?:[0-9a-f]{7,40}\.\.\.?[0-9a-f]{7,40}|\* \[new branch\]|\+ [0-9a-f]+\.\.\.[0-9a-f]+)\s+(\S+)\s+->\s+(\S+)/m;
const PR_URL = /https:\/\/\S+\/pull\/\d+/;

/** What a successful command's output says it did: a commit (`[branch abc1234] subject`), a push, a pull request. */
export function gitOutcomes(command: string, output: string): GitOutcome[] {
  const out: GitOutcome[] = [];
  const commit = /\bgit\b[^\n]*\bcommit\b/.test(command) ? COMMIT_LINE.exec(output) : null;
  if (commit) out.push({ kind: 'commit', text: `Committed ${commit[2].slice(0, 8)}: ${commit[3].trim()}` });
  if (/\bgit\b[^\n]*\bpush\b/.test(command)) {
    const push = PUSH_LINE.exec(output);
    if (push) out.push({ kind: 'push', text: `Pushed ${push[2]}` });
    else if (!/Everything up-to-date|rejected|error:|fatal:/i.test(output)) out.push({ kind: 'push', text: 'Pushed' });
  }
  if (/\bgh\s+pr\s+create\b/.test(command)) {
    const url = PR_URL.exec(output);
    out.push({ kind: 'pr', text: url ? `Opened pull request ${url[0]}` : 'Opened a pull request' });
  }
  return out;
}

/** Programs whose subcommand says what ran (`npm test` vs `npm run build`); for others the program alone does. */
const SUBCOMMANDS = /^(?:npm|pnpm|yarn|bun|npx|go|cargo|make|mise|just|python3?|node|deno|pytest|uv|poetry|gradle|mvn|docker|kubectl|terraform|git|dotnet|swift|zig|bazel)$/;

/** Programs that only filter another command's output (`… | tail -5`). */
const FILTERS = /^(?:tail|head|grep|egrep|rg|sed|awk|jq|sort|uniq|wc|tee|cat|less|more|cut|tr|xargs|column|true|echo)$/;

/**
 * What a later success must share with a failure to settle it: the program and, for build tools and
 * git, its subcommand (a corrected command in another folder or with other flags settles it).
 */
export function commandKey(command: string): string {
  const cmds = programCommands(command).filter((c) => !FILTERS.test(programWords(c.words)[0] ?? ''));
  const last = cmds[cmds.length - 1];
  if (!last) return command.trim();
  const words = programWords(last.words).filter((w) => !w.startsWith('-'));
  // python3 replaces python, pip3 pip: the same step
  const program = (words[0] ?? '').replace(/^(python|pip)3(?:\.\d+)?$/, '$1');
  if (isTestRun(command)) return 'test';
  if (!SUBCOMMANDS.test(program)) return program;
  const n = /^(?:npm|pnpm|yarn|bun|npx)$/.test(program) && words[1] === 'run' ? 3 : 2;
  return [program, ...words.slice(1, n)].join(' ');
}

const TEST_RUN = /^(?:(?:npm|pnpm|yarn|bun) (?:run )?test(?::\S+)?|npx (?:vitest|jest|mocha|playwright test)|vitest|jest|mocha|pytest|python3? -m pytest|go test|cargo test|make (?:test|check)|mvn test|gradle test|dotnet test|rspec|bundle exec rspec|deno test|mix test|swift test)\b/;

/** Whether a script's last program runs a test suite (any runner: a later passing run settles an earlier failing one). */
export function isTestRun(command: string): boolean {
  const cmds = programCommands(command).filter((c) => !FILTERS.test(programWords(c.words)[0] ?? ''));
  const last = cmds[cmds.length - 1];
  return last !== undefined && TEST_RUN.test(programWords(last.words).filter((w) => !/^-/.test(w) || w === '-m').join(' '));
}

/** The text of a script's last simple command that runs a program (for naming a failed command). */
export function lastProgramText(command: string): string | undefined {
  const cmds = programCommands(command).filter((c) => !FILTERS.test(programWords(c.words)[0] ?? ''));
  return (cmds[cmds.length - 1] ?? programCommands(command).pop())?.text;
}

/** Programs that only look or probe (a failure of theirs leaves no work undone: `test -f`, `which`, `command -v`). */
const LOOKS = /^(?:rg|grep|egrep|ls|cat|find|fd|head|tail|wc|which|whereis|type|hash|test|\[|\[\[|file|stat|tree|pwd|echo|printf|less|more|du|df|ps|env|printenv|jq|diff|cmp|true|false|sleep|readlink|realpath|id|whoami|uname|date)$/;
const GIT_LOOKS = /^(?:status|log|diff|show|branch|remote|rev-parse|blame|ls-files|ls-remote|describe|config|rev-list|merge-base|cat-file|grep)$/;
/** git's options that take a value before the subcommand (`git -C ~/.claude rev-parse`). */
const GIT_VALUE_OPTION = /^(?:-C|-c|--git-dir|--work-tree|--namespace)$/;

/** git's subcommand in a simple command's program words. */
function gitSubcommand(words: string[]): string {
  for (let i = 1; i < words.length; i++) {
    if (GIT_VALUE_OPTION.test(words[i])) i++;
    else if (!words[i].startsWith('-')) return words[i];
  }
  return '';
}

/** Whether one simple command only looks (`command -v x` included). */
function looks(c: SimpleCommand): boolean {
  const words = programWords(c.words);
  if (c.writes.length) return false;
  if (words[0] === 'git') return GIT_LOOKS.test(gitSubcommand(words));
  if (words[0] === 'sed') return words.includes('-n');
  if (c.words.includes('command') && /^-[vV]$/.test(words[0] ?? '')) return true;
  return LOOKS.test(words[0] ?? '');
}

/** Whether every simple command of a script only looks (searches, listings, `git status`, probes). */
export function onlyLooks(command: string): boolean {
  const cmds = programCommands(command);
  return cmds.length > 0 && cmds.every(looks);
}

/** Whether a script says its failure is expected (`… || true`, `|| :`, `|| echo …`). */
export function failureExpected(command: string): boolean {
  return /\|\|\s*(?:true|:|echo\b|exit 0\b)/.test(command);
}

/** The message of a `git commit -m …` command (a here-document's text included), or undefined. */
export function commitMessage(command: string): string | undefined {
  if (!/\bgit\b[^\n]*\bcommit\b/.test(command)) return undefined;
  // a here-document (to its end marker, or to the end of a command cut short)
  const heredoc = /<<-?\s*(['"]?)([A-Za-z_][\w-]*)\1[^\n]*\n([^]*?)(?:\n\s*\2\s*(?:\n|$)|$)/.exec(command);
  if (heredoc) return heredoc[3];
  const quoted = /\s-m\s+(["'])([^]*?)\1/.exec(command);
  return quoted?.[2];
}
