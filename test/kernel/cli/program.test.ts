// cli/program.ts: the full parse: commander's errors in memctx's words ("did you mean"), as JSON with --json,
// and the command lines that never fail on a bad option.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/cli.js';
import { runMemctx } from '../../helpers/run.js';

/** The README promises a "did you mean" for mistyped values and commands. */
async function workspace(): Promise<string> {
  const dir = tempDir();
  await runMemctx(['init'], { cwd: dir });
  mkdirSync(join(dir, 'logs'));
  writeFileSync(join(dir, 'logs/t.jsonl'), '');
  return dir;
}

describe('did you mean', () => {
  it.each([
    [['add', 'a.md', '--type', 'projects', '--name', 'A', '--description', 'B'], 'did you mean --type project?'],
    [['status', '--fail-on', 'orang', 'logs/t.jsonl'], 'did you mean --fail-on orange?'],
    [['lint', '-f', 'sarfi'], 'did you mean --format sarif?'],
    [['flush', '-t', 'sesion', '--goal', 'x'], 'did you mean --template session?'],
  ])('%j: exit 2 with %s', async (args, hint) => {
    const out = await runMemctx(args, { cwd: await workspace() });
    expect(out.code).toBe(2);
    expect(out.stderr).toContain(`  hint: ${hint}`);
    expect(out.stdout).toBe('');
  });

  it('a mistyped command: one suggestion, or "one of" for several', async () => {
    const dir = await workspace();
    expect((await runMemctx(['lnit'], { cwd: dir })).stderr).toBe("memctx: error: unknown command 'lnit'\n  hint: did you mean one of memctx init, memctx lint? (`memctx --help` lists the rest)\n");
    expect((await runMemctx(['serch'], { cwd: dir })).stderr).toBe("memctx: error: unknown command 'serch'\n  hint: did you mean memctx search? (`memctx --help` lists the rest)\n");
  });
});

describe('--json errors', () => {
  it('a bad value and a parse error (unknown option) give JSON too; a check that finds problems keeps exit 1', async () => {
    const dir = await workspace();
    const value = await runMemctx(['--json', 'lint', '-f', 'sarfi'], { cwd: dir });
    expect(value.code).toBe(2);
    expect(JSON.parse(value.stdout)).toEqual({ error: { message: '--format must be one of stylish, json, github, sarif, got "sarfi"', file: null, line: null, hint: 'did you mean --format sarif?', exitCode: 2 } });
    const parse = await runMemctx(['--json', 'lint', '--bogus'], { cwd: dir });
    expect(parse.code).toBe(2);
    expect(JSON.parse(parse.stdout).error).toMatchObject({ message: "unknown option '--bogus'", exitCode: 2 });
    writeFileSync(join(dir, '.memory/bad.md'), '---\nname: Bad\n---\nBody\n');
    const lint = await runMemctx(['--json', 'lint'], { cwd: dir });
    expect(lint.code).toBe(1);
    expect(Array.isArray(JSON.parse(lint.stdout))).toBe(true);
  });
});

describe("commander's errors in memctx's words", () => {
  let root: string;
  beforeEach(async () => {
    root = tempDir();
    expect((await runMemctx(['init'], { cwd: root })).code).toBe(0);
  });

  it("commander's own errors look like memctx's and say what to do", async () => {
    const missing = await runMemctx(['add', 'x'], { cwd: root });
    expect(missing).toEqual({ code: 2, stdout: '', stderr: "memctx: error: required option '--name <name>' not specified\n  hint: run `memctx add --help` for the options and arguments it takes\n" });
    const option = await runMemctx(['ls', '--tipe', 'user'], { cwd: root });
    expect(option.stderr).toBe("memctx: error: unknown option '--tipe'\n  hint: did you mean --type? (`memctx ls --help` lists the rest)\n");
    const command = await runMemctx(['stauts'], { cwd: root });
    expect(command.stderr).toBe("memctx: error: unknown command 'stauts'\n  hint: did you mean memctx status? (`memctx --help` lists the rest)\n");
    const choice = await runMemctx(['pack', '--format', 'jsn'], { cwd: root });
    expect(choice.code).toBe(2);
    // Checked by pack's schema (src/commands/pack/schema.ts), which MCP and the library share.
    expect(choice.stderr).toBe('memctx: error: --format must be one of markdown, xml, json, got "jsn"\n  hint: did you mean --format json?\n');
  });

  it('a status line still prints its neutral line on a bad option', async () => {
    const r = await runMemctx(['status', '--statusline', '--bogus'], { cwd: root, input: '{}' });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
  });
});
