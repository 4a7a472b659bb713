// Runs the real Claude Code (the binary install.mjs put in the cache) in a temporary HOME and project
// against the scripted stand-in, and returns what it left behind: transcript, hook outputs, files.
import { spawnSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runProcess as run } from '../../helpers/process.js';
import { startStandIn, type RecordedRequest, type StandInOptions } from './stand-in.js';
// @ts-expect-error plain JavaScript module shared with .ci/run
import { CLAUDE_VERSION, ensureClaude } from './install.mjs';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
/** The built memctx bin, by absolute path, as hooks and MCP config use it. */
export const MEMCTX_BIN = join(REPO, 'bin/memctx.js');
export const MEMCTX = `${quote(process.execPath)} ${quote(MEMCTX_BIN)}`;

// .ci/run sets MEMCTX_CLAUDE_UNAVAILABLE when it could not install the binary, so no file retries.
const installed: { bin?: string; version?: string; error?: string } = process.env.MEMCTX_CLAUDE_UNAVAILABLE
  ? { error: process.env.MEMCTX_CLAUDE_UNAVAILABLE }
  : ensureClaude();
export const claude = installed;
export const claudeVersion: string = installed.version ?? CLAUDE_VERSION;
/** Why the scenarios are skipped, or undefined when Claude Code is there. */
export const unavailable: string | undefined = installed.error
  ? process.env.MEMCTX_CLAUDE_UNAVAILABLE || `Claude Code ${CLAUDE_VERSION} could not be installed: ${installed.error}`
  : existsSync(MEMCTX_BIN) && existsSync(join(REPO, 'dist/src/main.js'))
    ? undefined
    : 'memctx is not built (run npm run build)';

export function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A temporary world: HOME and a project directory (real paths, so keys match what Claude Code computes). */
export interface World {
  root: string;
  home: string;
  project: string;
  /** Where hook wrappers write their output. */
  logs: string;
  cleanup(): void;
}

export function makeWorld(options: { git?: boolean; project?: string } = {}): World {
  const root = makeRoot();
  const home = join(root, 'home');
  const project = join(root, options.project ?? 'project');
  const logs = join(root, 'logs');
  const bin = join(root, 'bin');
  for (const dir of [home, project, logs, bin]) mkdirSync(dir, { recursive: true });
  // `memctx` on PATH is the built bin, so the README's recipes run as written.
  writeFileSync(join(bin, 'memctx'), `#!/bin/sh\nexec ${MEMCTX} "$@"\n`, { mode: 0o755 });
  if (options.git !== false) spawnSync('git', ['init', '-q', '-b', 'main', project]);
  // Onboarding done, the project trusted, the placeholder key approved: what an interactive run would ask.
  writeFileSync(
    join(home, '.claude.json'),
    JSON.stringify({
      hasCompletedOnboarding: true,
      theme: 'dark',
      customApiKeyResponses: { approved: [API_KEY.slice(-20)], rejected: [] },
      projects: { [project]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true, allowedTools: [] } },
    }),
  );
  return { root, home, project, logs, cleanup: () => rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 }) };
}

/**
 * A fresh directory named memctx-claude-NNNNNN (six digits: any six digits are the same number of
 * tokens, so token figures of transcripts that name these paths are exact).
 */
function makeRoot(): string {
  const base = realpathSync(tmpdir());
  for (;;) {
    const path = join(base, `memctx-claude-${String(randomInt(1_000_000)).padStart(6, '0')}`);
    try {
      mkdirSync(path);
      return path;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

export const API_KEY = 'sk-ant-placeholder-memctx-e2e-0000000000';

export function claudeEnv(world: World, baseUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: `${join(world.root, 'bin')}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: world.home,
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    ANTHROPIC_API_KEY: API_KEY,
    ANTHROPIC_BASE_URL: baseUrl,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    NO_COLOR: '1',
    ...extra,
  };
}

/**
 * A hook command that runs `memctx ARGS` with the hook's stdin and records its stdout, stderr, exit
 * code and wall time under world.logs/NAME.* (stdout is passed on too, so SessionStart output still
 * reaches Claude Code).
 */
export function hookCommand(world: World, name: string, args: string): string {
  const base = join(world.logs, name);
  const out = quote(base + '.out');
  // With GNU time, also the CPU seconds memctx used (what it costs on an idle core, whatever the load).
  const timed = existsSync('/usr/bin/time') ? `/usr/bin/time -a -o ${quote(base + '.cpu')} -f '%U %S' ` : '';
  return (
    `s=$(date +%s%N); ${timed}${MEMCTX} ${args} >${out} 2>${quote(base + '.err')}; rc=$?; e=$(date +%s%N); ` +
    `echo "$rc $(( (e - s) / 1000000 ))" >> ${quote(base + '.runs')}; cat ${out}; exit $rc`
  );
}

export interface HookRun {
  code: number;
  /** Wall time. */
  ms: number;
  /** CPU time (user + system), when GNU time was there. */
  cpuMs?: number;
}

/** Each recorded run of hook NAME (exit code and milliseconds), plus its last stdout/stderr. */
export function hookRuns(world: World, name: string): { runs: HookRun[]; stdout: string; stderr: string } {
  const base = join(world.logs, name);
  const read = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : '');
  const cpu = read(base + '.cpu')
    .split('\n')
    .filter((line) => /^[\d.]+ [\d.]+$/.test(line))
    .map((line) => Math.round(line.split(' ').reduce((sum, seconds) => sum + Number(seconds) * 1000, 0)));
  const runs = read(base + '.runs')
    .split('\n')
    .filter(Boolean)
    .map((line, i) => {
      const [code, ms] = line.split(' ').map(Number);
      return { code, ms, cpuMs: cpu[i] };
    });
  return { runs, stdout: read(base + '.out'), stderr: read(base + '.err') };
}

export function writeSettings(world: World, settings: object): void {
  mkdirSync(join(world.project, '.claude'), { recursive: true });
  writeFileSync(join(world.project, '.claude/settings.json'), JSON.stringify(settings, null, 2));
  // The scenarios rewrite the settings between runs of one session: the harness's doing, not the session's work.
  const exclude = join(world.project, '.git/info/exclude');
  if (existsSync(exclude) && !readFileSync(exclude, 'utf8').includes('/.claude/settings.json')) appendFileSync(exclude, '/.claude/settings.json\n');
}

/** Claude Code's key for a project path: every non-alphanumeric character becomes '-'. */
export function projectKey(path: string): string {
  return path.replace(/[^a-zA-Z0-9]/g, '-');
}

export interface SessionOptions extends StandInOptions {
  prompt: string;
  allowedTools?: string[];
  /** Extra claude arguments (e.g. --mcp-config FILE, --continue). */
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  timeoutMs?: number;
  /** Awaited after claude exits, before the stand-in closes (what the session started in the background still reaches it). */
  beforeClose?: () => Promise<void>;
}

export interface SessionResult {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
  requests: RecordedRequest[];
  agentRequests: RecordedRequest[];
  /** The project's directory under $HOME/.claude/projects/ that this session wrote. */
  projectDir: string;
  transcriptPath: string | undefined;
  transcript: any[];
}

/** One `claude -p PROMPT` run against a fresh stand-in answering from options.turns. */
export async function runClaude(world: World, options: SessionOptions): Promise<SessionResult> {
  if (!claude.bin) throw new Error(unavailable);
  const standIn = await startStandIn(options);
  const args = ['-p', options.prompt, ...(options.allowedTools ? ['--allowedTools', options.allowedTools.join(',')] : []), ...(options.args ?? [])];
  const started = Date.now();
  try {
    const result = await run(claude.bin, args, options.cwd ?? world.project, claudeEnv(world, standIn.url, options.env), options.timeoutMs ?? 90_000);
    const projectDir = join(world.home, '.claude/projects', projectKey(world.project));
    // The session this run wrote (or continued) is the transcript written last.
    const transcriptPath = existsSync(projectDir)
      ? readdirSync(projectDir)
          .filter((name) => name.endsWith('.jsonl'))
          .map((name) => join(projectDir, name))
          .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0]
      : undefined;
    const transcript = transcriptPath ? readJsonl(transcriptPath) : [];
    await options.beforeClose?.();
    return { ...result, ms: Date.now() - started, requests: standIn.requests, agentRequests: standIn.agentRequests(), projectDir, transcriptPath, transcript };
  } finally {
    await standIn.close();
  }
}

/** A claude subcommand (`mcp add`, `mcp list`) in the world, with no model behind it. */
export async function claudeCommand(world: World, args: string[], cwd = world.project): Promise<{ code: number; stdout: string; stderr: string }> {
  if (!claude.bin) throw new Error(unavailable);
  return run(claude.bin, args, cwd, claudeEnv(world, 'http://127.0.0.1:9'), 60_000);
}

/** Every tool_result block the model was sent, by tool_use id, with its text. */
export function toolResults(requests: RecordedRequest[]): Map<string, { isError: boolean; text: string }> {
  const results = new Map<string, { isError: boolean; text: string }>();
  for (const request of requests)
    for (const message of request.body?.messages ?? [])
      for (const block of Array.isArray(message.content) ? message.content : [])
        if (block?.type === 'tool_result') {
          const text = typeof block.content === 'string' ? block.content : (block.content ?? []).map((part: any) => part.text ?? '').join('\n');
          results.set(block.tool_use_id, { isError: block.is_error === true, text });
        }
  return results;
}

export interface Terminal {
  /** The visible screen, as text. */
  screen(): string;
  /** Wait until the screen matches; the match, or an error showing the screen. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  type(text: string): void;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

let terminals = 0;

/** An interactive `claude` under tmux (its own server socket), against a fresh stand-in. */
export async function openTerminal(world: World, options: StandInOptions & { args?: string[]; env?: Record<string, string> }): Promise<Terminal> {
  if (!claude.bin) throw new Error(unavailable);
  const standIn = await startStandIn(options);
  const socket = `memctx-e2e-${process.pid}-${++terminals}`;
  const env = claudeEnv(world, standIn.url, options.env);
  const script = join(world.root, `terminal-${terminals}.sh`);
  const exports = Object.entries(env).map(([key, value]) => `export ${key}=${quote(value)}`);
  writeFileSync(script, ['#!/bin/sh', ...exports, `exec ${quote(claude.bin)} ${(options.args ?? []).map(quote).join(' ')}`, ''].join('\n'), { mode: 0o755 });
  const tmux = (...args: string[]) => spawnSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8', env: { PATH: env.PATH, TERM: 'xterm-256color', HOME: world.home } });
  const started = tmux('new-session', '-d', '-s', 'e2e', '-x', '160', '-y', '45', '-c', world.project, script);
  if (started.status !== 0) throw new Error(`tmux could not start: ${started.stderr}`);
  const screen = () => tmux('capture-pane', '-p', '-t', 'e2e').stdout ?? '';
  return {
    screen,
    async waitFor(pattern, timeoutMs = 30_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const match = screen().match(pattern);
        if (match) return match;
        if (Date.now() > until) throw new Error(`the screen never showed ${pattern}:\n${screen()}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
    type(text) {
      tmux('send-keys', '-t', 'e2e', '-l', text);
      tmux('send-keys', '-t', 'e2e', 'Enter');
    },
    requests: standIn.requests,
    async close() {
      const pid = Number(tmux('display-message', '-p', '-t', 'e2e', '#{pane_pid}').stdout.trim());
      tmux('kill-server');
      // Wait for claude to finish writing (it is the pane's process), then stop it if it lingers.
      for (let waited = 0; pid > 0 && alive(pid) && waited < 5_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
      if (pid > 0 && alive(pid)) process.kill(pid, 'SIGKILL');
      await standIn.close();
    },
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function hasTmux(): boolean {
  return spawnSync('tmux', ['-V']).status === 0;
}

export function readJsonl(path: string): any[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line));
}


/** Run memctx (the built bin) as a user would, colourless. */
export function memctx(args: string[], options: { cwd: string; input?: string; env?: Record<string, string> }): { code: number; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [MEMCTX_BIN, ...args], {
    cwd: options.cwd,
    input: options.input ?? '',
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', ...options.env },
    timeout: 30_000,
  });
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/** The body of a `## NAME` section of a session file, trimmed. */
export function section(text: string, name: string): string {
  const match = new RegExp(`^## ${name}\\n([\\s\\S]*?)(?=^## |$(?![\\s\\S]))`, 'm').exec(text);
  return match ? match[1].trim() : `(no ## ${name} section)`;
}
