/**
 * Runs README.md's shell examples, so the README cannot drift from what memctx does.
 *
 * Convention for README authors:
 * - Every fenced block whose info string is `sh`, `bash` or `shell` is run, top to bottom, as one
 *   bash script (variables carry from block to block, as when a reader pastes them in order), in a
 *   fresh temporary directory holding a copy of `fixtures/` and a git repository on branch `main`.
 *   `npx memctx` and `memctx` run the built bin (`npm run build` first); other `npx` commands fail.
 * - Each command (a line, with its `\` continuations) must exit 0, unless its trailing comment starts
 *   with `exit N` (`npx memctx lint   # exit 1: …`), then it must exit N; `exit N (M when run again…`
 *   expects M on the second run (`add` refusing to overwrite what the first run created). Lines starting with `#` are
 *   shown output and are not run. Output itself is not compared.
 * - The whole script is run twice in the same directory: examples must not depend on a clean
 *   machine (use `$(mktemp -d)` rather than fixed /tmp paths, `rm -f` before re-creating).
 * - A block that must not run (network, installs, the test suite itself, another machine's paths) is
 *   marked with `<!-- not-run: why -->` on the line before its fence, or with `not-run` in its info
 *   string (```sh not-run). Non-shell blocks (json, yaml, markdown, plain ```) are never run.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, FIXTURES, REPO, removeDir, tempDir } from '../helpers/cli.js';

export interface Command {
  /** 1-based README line where the command starts. */
  line: number;
  text: string;
  expectedExit: number;
  /** On the second run, when it differs. */
  againExit?: number;
}

const SHELL = /^(sh|bash|shell)(\s|$)/;

/** The runnable commands of a Markdown text, in order. */
export function readmeCommands(markdown: string): Command[] {
  const lines = markdown.split('\n');
  const out: Command[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^(`{3,})(.*)$/.exec(lines[i]);
    if (!fence) continue;
    const info = fence[2].trim();
    const skipped = !SHELL.test(info) || /\bnot-run\b/.test(info) || /^<!--\s*not-run\b/.test(lines[i - 1] ?? '');
    let end = i + 1;
    while (end < lines.length && !lines[end].startsWith(fence[1])) end++;
    for (let j = i + 1; !skipped && j < end; j++) {
      if (lines[j].trim() === '' || lines[j].trimStart().startsWith('#')) continue;
      const start = j;
      let text = lines[j];
      while (text.endsWith('\\') && j + 1 < end) text = `${text}\n${lines[++j]}`;
      const comment = /\s{2,}#\s*(.*)$/.exec(text.split('\n').pop()!);
      const exit = comment ? /^exit (\d+)\b(?: \((\d+) when run again\b)?/.exec(comment[1]) : null;
      out.push({ line: start + 1, text, expectedExit: exit ? Number(exit[1]) : 0, ...(exit?.[2] ? { againExit: Number(exit[2]) } : {}) });
    }
    i = end;
  }
  return out;
}

/** One bash script running every command and recording each unexpected exit code in $FAILS. */
function script(commands: Command[]): string {
  const parts = ['npx() { if [ "$1" = memctx ]; then shift; node "$MEMCTX_BIN" "$@"; else echo "npx $* is not run by the README test" >&2; return 127; fi; }', 'memctx() { node "$MEMCTX_BIN" "$@"; }'];
  for (const c of commands) {
    const shown = c.text.split('\n')[0].replace(/'/g, `'\\''`);
    const expected = c.againExit === undefined ? String(c.expectedExit) : `$([ "$RUN" = 2 ] && echo ${c.againExit} || echo ${c.expectedExit})`;
    parts.push(c.text, `__rc=$?; __want=${expected}; [ "$__rc" -eq "$__want" ] || echo 'README.md:${c.line}: exit '"$__rc"', expected '"$__want"': ${shown}' >> "$FAILS"`);
  }
  return `${parts.join('\n')}\n`;
}

describe('readmeCommands', () => {
  it('reads sh blocks, skips not-run ones and output lines, joins continuations, takes # exit N', () => {
    const md = ['```sh', 'a --x  # exit 1: boom', 'add x  # exit 0 (2 when run again: never overwrites)', '# output', 'b \\', '  c', '```', '<!-- not-run: network -->', '```sh', 'curl x', '```', '```sh not-run', 'y', '```', '```json', '{}', '```'].join('\n');
    expect(readmeCommands(md)).toEqual([
      { line: 2, text: 'a --x  # exit 1: boom', expectedExit: 1 },
      { line: 3, text: 'add x  # exit 0 (2 when run again: never overwrites)', expectedExit: 0, againExit: 2 },
      { line: 5, text: 'b \\\n  c', expectedExit: 0 },
    ]);
  });
});

describe('README.md runs as written, twice', () => {
  const work = tempDir('memctx-readme-');
  afterAll(() => removeDir(work));

  it('every shell example exits as the README says', () => {
    const commands = readmeCommands(readFileSync(join(REPO, 'README.md'), 'utf8'));
    expect(commands.length).toBeGreaterThan(40);
    cpSync(FIXTURES, join(work, 'fixtures'), { recursive: true });
    const home = join(work, '.home');
    mkdirSync(home);
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('GIT_') && !k.startsWith('MEMCTX') && k !== 'FORCE_COLOR') env[k] = v;
    Object.assign(env, { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), GIT_CONFIG_NOSYSTEM: '1', GIT_CEILING_DIRECTORIES: work, NO_COLOR: '1', MEMCTX_BIN: BIN, WORK: work, FAILS: join(home, 'fails') });
    const git = (args: string[]) => expect(spawnSync('git', args, { cwd: work, env, encoding: 'utf8' }).status).toBe(0);
    git(['init', '-q', '-b', 'main']);
    git(['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', 'commit', '-q', '--allow-empty', '-m', 'start']);
    const path = join(home, 'readme.sh');
    writeFileSync(path, script(commands));
    chmodSync(path, 0o755);
    for (const run of [1, 2]) {
      const r = spawnSync('bash', [path], { cwd: work, env: { ...env, RUN: String(run) }, encoding: 'utf8', timeout: 240_000 });
      expect(r.status, `run ${run}: ${r.stderr}`).toBe(0);
      let fails = '';
      try {
        fails = readFileSync(env.FAILS, 'utf8');
      } catch {
        // none
      }
      expect(fails, `run ${run}`).toBe('');
    }
  }, 300_000);
});
