// `compact`'s options are checked by its schema, as every other operation's are (issue 31: one option
// checker): the same value gets the same answer from `compact` as from `pack`.
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/cli.js';
import { runMemctx } from '../../helpers/run.js';

describe('compact options, through the one checker', () => {
  it.each([
    [['--encoding', 'O200K_BASE'], 'memctx: error: --encoding must be one of o200k_base, cl100k_base, got "O200K_BASE"\n  hint: did you mean --encoding o200k_base?\n'],
    [['--format', 'claud'], 'memctx: error: --format must be one of claude, codex, gemini, openai, text, got "claud"\n  hint: did you mean --format claude?\n'],
    [['--keep-last', 'x'], 'memctx: error: --keep-last must be a whole number of at least 0, got "x"\n'],
    [['--keep-last', '-1'], 'memctx: error: --keep-last must be a whole number of at least 0, got -1\n'],
  ])('compact %j is refused (exit 2), as pack refuses the same value', async (args, stderr) => {
    const cwd = tempDir();
    const compact = await runMemctx(['compact', '-', ...args], { cwd, input: 'user: hello\n' });
    expect(compact).toEqual({ code: 2, stdout: '', stderr });
    if (args[0] === '--encoding') expect((await runMemctx(['pack', ...args], { cwd })).stderr).toBe(stderr);
  });

  it('a good value still compacts', async () => {
    const r = await runMemctx(['--json', 'compact', '-', '--encoding', 'cl100k_base', '--keep-last', '0'], { cwd: tempDir(), input: 'user: hello\nassistant: hi\n' });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ encoding: 'cl100k_base', file: 'stdin' });
  });
});
