/**
 * Help pages (issue 34, item 7): every page has examples, numeric defaults print as numbers,
 * `memctx help WORD` for no command says so (exit 2), and `memctx completion` prints a script bash runs.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, tempDir } from '../../helpers/cli.js';
import { runMemctx } from '../../helpers/run.js';

/** The command names listed under "Commands:" in a help page. */
function listedCommands(help: string): string[] {
  const section = (help.split('\nCommands:\n')[1] ?? '').split('\n\n')[0];
  return [...section.matchAll(/^ {2}([a-z][\w-]*)/gm)].map((m) => m[1]).filter((name) => name !== 'help');
}

describe('memctx help', () => {
  it('every help page, subcommands included, ends with examples; no default is a quoted number', async () => {
    const cwd = tempDir();
    const pages: string[][] = [[]];
    const seen: string[] = [];
    while (pages.length && seen.length < 100) {
      const path = pages.shift()!;
      const out = await runMemctx([...path, '--help'], { cwd });
      expect(out.code, path.join(' ')).toBe(0);
      expect(out.stdout, `memctx ${path.join(' ')} --help`).toMatch(/\nExamples:\n {2}(?:memctx|git|claude|eval) \S/);
      expect(out.stdout, `memctx ${path.join(' ')} --help`).not.toMatch(/\(default: "\d/);
      seen.push(path.join(' '));
      for (const name of listedCommands(out.stdout)) pages.push([...path, name]);
    }
    expect(seen).toContain('hook install');
    expect(seen).toContain('completion');
    expect(seen.length).toBeGreaterThanOrEqual(24);
  });

  it('numeric defaults print as numbers', async () => {
    const cwd = tempDir();
    expect((await runMemctx(['search', '--help'], { cwd })).stdout).toMatch(/at most n hits \(default: 10\)/);
    expect((await runMemctx(['checkpoint', '--help'], { cwd })).stdout).toMatch(/\(default: 3000\)/);
  });

  it('`memctx help WORD` for no command: unknown command, did-you-mean, exit 2', async () => {
    const cwd = tempDir();
    const none = await runMemctx(['help', 'nonexistent'], { cwd });
    expect(none).toMatchObject({ code: 2, stdout: '' });
    expect(none.stderr).toBe("memctx: error: unknown command 'nonexistent'\n  hint: run `memctx --help` for the options and arguments it takes\n");
    const close = await runMemctx(['help', 'lnt'], { cwd });
    expect(close.code).toBe(2);
    expect(close.stderr).toBe("memctx: error: unknown command 'lnt'\n  hint: did you mean memctx lint? (`memctx --help` lists the rest)\n");
    const known = await runMemctx(['help', 'lint'], { cwd });
    expect(known.code).toBe(0);
    expect(known.stdout).toMatch(/^Usage: memctx lint /);
  });
});

describe('memctx completion', () => {
  it('bash: registers _memctx_complete and completes commands, subcommands and options', () => {
    const script = [
      `eval "$(${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} completion bash)"`,
      'complete -p memctx',
      't() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _memctx_complete; echo "${COMPREPLY[*]}"; }',
      't memctx li', 't memctx --dir notes hook in', 't memctx lint --f', 't memctx pack --budget 10 --ta',
    ].join('\n');
    const run = spawnSync('bash', ['--norc', '-c', script], { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: tempDir() } });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('complete -o default -F _memctx_complete memctx\nlint\ninstall\n--fix --format\n--task\n');
  });

  it('zsh and fish get scripts; another shell is refused (exit 2)', async () => {
    const cwd = tempDir();
    expect((await runMemctx(['completion', 'zsh'], { cwd })).stdout).toMatch(/^# memctx completion \(zsh\)[^\n]*\nautoload -U \+X bashcompinit && bashcompinit\n/);
    const fish = (await runMemctx(['completion', 'fish'], { cwd })).stdout;
    expect(fish).toContain("complete -c memctx -n '__fish_use_subcommand' -a lint -d 'check memory hygiene");
    expect(fish).toContain("complete -c memctx -n '__fish_seen_subcommand_from lint' -l fix -d");
    const tcsh = await runMemctx(['completion', 'tcsh'], { cwd });
    expect(tcsh.code).toBe(2);
    // Checked by completion's schema, as every command's arguments are.
    expect(tcsh.stderr).toBe('memctx: error: shell must be one of bash, zsh, fish, got "tcsh"\n');
  });
});
