// completion/cli.ts: `memctx completion` prints a script bash runs, and scripts for zsh and fish.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, tempDir } from '../../helpers/cli.js';
import { runMemctx } from '../../helpers/run.js';

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
