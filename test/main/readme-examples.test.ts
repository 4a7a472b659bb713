/**
 * Runs the shell examples of README.md and of every docs/**\/*.md page, so they cannot drift from what
 * memctx does. The pages run as one script, in the order of DOC_ORDER (test/helpers/readme.ts).
 *
 * Convention for README and docs authors:
 * - Every fenced block whose info string is `sh`, `bash` or `shell` is run, top to bottom, as one
 *   bash script (variables carry from block to block, as when a reader pastes them in order), in a
 *   fresh temporary directory holding a copy of `fixtures/` and a git repository on branch `main`.
 *   `npx memctx` and `memctx` run memctx in-process (`main()` of src/main.ts, through a local
 *   socket that bash opens itself, so no Node starts per command); other `npx` commands fail.
 * - Each command (a line, with its `\` continuations) must exit 0, unless its trailing comment starts
 *   with `exit N` (`npx memctx lint   # exit 1: …`), then it must exit N; `exit N (M when run again…`
 *   expects M on the second run (`add` refusing to overwrite what the first run created). Lines starting with `#` are
 *   shown output and are not run. Output itself is not compared.
 * - The whole script is run twice in the same directory: examples must not depend on a clean
 *   machine (use `$(mktemp -d)` rather than fixed /tmp paths, `rm -f` before re-creating).
 * - A block that must not run (network, installs, the test suite itself, another machine's paths) is
 *   marked with `<!-- not-run: why -->` on the line before its fence, or with `not-run` in its info
 *   string (```sh not-run). Non-shell blocks (json, yaml, markdown, plain ```) are never run. As a
 *   guard, npm, yarn, pnpm, curl, wget, claude, codex and `git clone|push|fetch` fail in the script.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/main.js';
import type { Io } from '../../src/kernel/cli/context.js';
import { FIXTURES, REPO, removeDir, tempDir } from '../helpers/cli.js';

import { docCommands, readmeCommands, type Command } from '../helpers/readme.js';

/**
 * `memctx ARGS`: sends the working directory, the arguments and stdin (when it is not a terminal)
 * to the test's server over bash's own /dev/tcp, and prints what memctx printed, exit code included.
 * Request: cwd NUL argc NUL args… NUL stdin-bytes NUL stdin. Reply: code NUL stdout-bytes NUL stdout stderr.
 */
const CLIENT = `
memctx() {
  local input='' code len out
  if [ ! -t 0 ]; then input=$(cat; printf x); input=\${input%x}; fi
  exec 3<>"/dev/tcp/127.0.0.1/$MEMCTX_PORT" || return 125
  { printf '%s\\0' "$PWD" "$#" "$@"; LC_ALL=C; printf '%s\\0%s' "\${#input}" "$input"; } >&3
  LC_ALL=C IFS= read -r -d '' code <&3
  LC_ALL=C IFS= read -r -d '' len <&3
  if [ "$len" -gt 0 ]; then LC_ALL=C IFS= read -r -d '' -N "$len" out <&3; printf '%s' "$out"; fi
  LC_ALL=C IFS= read -r -d '' out <&3; printf '%s' "$out" >&2
  exec 3<&-
  return "$code"
}
npx() { if [ "$1" = memctx ]; then shift; memctx "$@"; else echo "npx $* is not run by the README test" >&2; return 127; fi; }
# Never install, publish or reach the network from a test: such blocks must be marked not-run.
for tool in npm yarn pnpm curl wget claude codex; do eval "$tool() { echo \"$tool is not run by the README test: mark the block <!-- not-run -->\" >&2; return 127; }"; done
git() { if [ "$1" = clone ] || [ "$1" = push ] || [ "$1" = fetch ]; then echo "git $1 is not run by the README test" >&2; return 127; fi; command git "$@"; }
`;

/** Serve memctx in-process for the script's `memctx` function (see CLIENT). */
function serve(env: Record<string, string>): Promise<Server> {
  const server = createServer((socket) => {
    let buf = Buffer.alloc(0);
    let done = false;
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      const fields: string[] = [];
      let at = 0;
      for (let nul = buf.indexOf(0, at); nul !== -1 && (fields.length < 2 || fields.length < 3 + Number(fields[1])); nul = buf.indexOf(0, at)) {
        fields.push(buf.subarray(at, nul).toString('utf8'));
        at = nul + 1;
      }
      if (done || fields.length < 2 || fields.length < 3 + Number(fields[1])) return;
      const size = Number(fields[fields.length - 1]);
      if (buf.length - at < size) return;
      done = true;
      const [cwd, argc, ...rest] = fields;
      const args = rest.slice(0, Number(argc));
      const input = buf.subarray(at, at + size);
      let stdout = '';
      let stderr = '';
      const io: Io = {
        stdout: { write: (text: string) => ((stdout += text), true), isTTY: false },
        stderr: { write: (text: string) => ((stderr += text), true), isTTY: false },
        stdin: Object.assign(Readable.from(size ? [input] : []), { isTTY: false }),
        cwd,
        env,
        home: env.HOME,
        now: () => new Date(),
      };
      main(['node', 'memctx', ...args], io)
        .catch((err: Error) => ((stderr += `test server: ${err.stack}\n`), 70))
        .then((code) => socket.end(Buffer.concat([Buffer.from(`${code}\0${Buffer.byteLength(stdout)}\0`), Buffer.from(stdout), Buffer.from(`${stderr}\0`)])));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** One bash script running every command and recording each unexpected exit code in $FAILS. */
function script(commands: (Command & { file: string })[]): string {
  const parts = [CLIENT];
  for (const c of commands) {
    const shown = c.text.split('\n')[0].replace(/'/g, `'\\''`);
    const expected = c.againExit === undefined ? String(c.expectedExit) : `$([ "$RUN" = 2 ] && echo ${c.againExit} || echo ${c.expectedExit})`;
    parts.push(c.text, `__rc=$?; __want=${expected}; [ "$__rc" -eq "$__want" ] || echo '${c.file}:${c.line}: exit '"$__rc"', expected '"$__want"': ${shown}' >> "$FAILS"`);
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

describe('README.md and docs/ run as written, twice', () => {
  const work = tempDir('memctx-readme-');
  const env: Record<string, string> = {};
  const path = join(work, '.home', 'readme.sh');
  let server: Server;
  beforeAll(async () => {
    cpSync(FIXTURES, join(work, 'fixtures'), { recursive: true, filter: (source) => !source.endsWith('/.memctx') });
    const home = join(work, '.home');
    mkdirSync(home);
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('GIT_') && !k.startsWith('MEMCTX') && k !== 'FORCE_COLOR') env[k] = v;
    Object.assign(env, { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), GIT_CONFIG_NOSYSTEM: '1', GIT_CEILING_DIRECTORIES: work, NO_COLOR: '1', WORK: work, FAILS: join(home, 'fails') });
    server = await serve(env);
    env.MEMCTX_PORT = String((server.address() as AddressInfo).port);
    for (const args of [['init', '-q', '-b', 'main'], ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', 'commit', '-q', '--allow-empty', '-m', 'start']]) {
      const r = spawnSync('git', args, { cwd: work, env, encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
    }
  });
  afterAll(() => {
    server?.close();
    removeDir(work);
  });

  it('the pages hold the examples the README held, README.md, pack, flush and git among them', () => {
    const commands = docCommands(REPO);
    expect(commands.length).toBeGreaterThanOrEqual(74); // what README.md held before its reference moved to docs/
    for (const page of ['README.md', 'docs/commands/pack.md', 'docs/commands/flush.md', 'docs/git.md']) expect(commands.some((c) => c.file === page), page).toBe(true);
    writeFileSync(path, script(commands));
    chmodSync(path, 0o755);
  });

  // The same script twice in the same directory (run 2 expects what run 1 left), one test per run.
  it.each([1, 2])('run %i: every shell example exits as its page says', async (run) => {
    // Asynchronously: the server answering the script runs in this process.
    const r = await new Promise<{ status: number | null; stderr: string }>((resolve) => {
      const child = spawn('bash', [path], { cwd: work, env: { ...env, RUN: String(run) }, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      child.on('close', (status) => resolve({ status, stderr }));
    });
    expect(r.status, `run ${run}: ${r.stderr}`).toBe(0);
    let fails = '';
    try {
      fails = readFileSync(env.FAILS, 'utf8');
      writeFileSync(env.FAILS, '');
    } catch {
      // none
    }
    expect(fails, `run ${run}`).toBe('');
  }, 150_000);
});
