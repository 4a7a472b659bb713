import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runMemctx } from '../helpers/run.js';
import { memctx, removeDir, tempDir, stateOf } from '../helpers/cli.js';

describe('clear messages for the remaining confusing cases', () => {
  let root: string;
  let dir: string;
  const add = ['add', 'a', '--name', 'A', '--description', 'd', '--type', 'user', '--body', 'b'];
  beforeEach(async () => {
    root = tempDir();
    dir = join(root, '.memory');
    expect((await runMemctx(['init'], { cwd: root })).code).toBe(0);
  });
  afterEach(() => removeDir(root));

  it('a per-user cache folder that is a file (no place for the write lock)', () => {
    const cache = join(root, 'cache-file');
    writeFileSync(cache, 'oops\n');
    const r = memctx(add, { cwd: root, env: { XDG_CACHE_HOME: cache, HOME: cache } });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `memctx: error: ${dir}: cannot keep the write lock: ${cache} is not a directory; cannot use ${cache}/.cache (ENOTDIR)\n  hint: memctx keeps its lock in the git directory (.git/memctx/) or, outside git, in $XDG_CACHE_HOME/memctx/: make that folder writable and yours\n`,
    );
    expect(existsSync(join(dir, 'a.md'))).toBe(false);
  });

  it('a future-dated lock is reported at once, with what to do', async () => {
    const lock = join(stateOf(dir), 'lock');
    mkdirSync(lock, { recursive: true });
    const future = new Date(Date.now() + 3_600_000);
    utimesSync(lock, future, future);
    // "At once" without a clock: this message comes only from the first try for the lock (store/write.ts).
    const r = await runMemctx(add, { cwd: root });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('the write lock is dated ');
    expect(r.stderr).toContain('in the future, so it would never expire');
    expect(r.stderr).toContain(`hint: if no other memctx process is running, delete it (rm -r '${lock}') and run the command again`);
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
