/**
 * `npm run bench -- startup`: the paths that run on every message or every commit, each beside
 * `node -e 0` in the same rounds (interleaved, so load on a shared machine falls on all alike), with
 * NODE_EXTRA_CA_CERTS unset as most users have it. Wall and CPU medians; the goals are ratios of CPU
 * time to `node -e 0`'s (the steadier figure under load), the wall ratios are printed beside them.
 * On Node >= 22.1 the hot paths load their bundle with Node's compile cache (in the per-user cache
 * folder, XDG_CACHE_HOME here): they run with a cache the warm-up run filled (the steady state: a hook
 * runs many times) and, on their own rows, with an empty one each time (the first run after
 * installing or upgrading). On Node 20 there is no compile cache: both rows measure the same.
 */
import { execFileSync, spawn } from 'node:child_process';
import * as nodeModule from 'node:module';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { generateCorpus } from './corpus.js';
import { claudeTranscript } from './flush.bench.js';
import { answerCpuProbe, BIN, fmtMs, fmtRatio, medians, plainEnv, runNode, type NodeRun } from './measure.js';
import type { BenchRow, BenchSection } from './run.js';

const MCP_INPUT = [
  { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/list' },
].map((m) => `${JSON.stringify(m)}\n`).join('');

/**
 * `memctx mcp` from spawn to the `tools/list` answer on stdout: wall time as the client sees it, and the
 * process's CPU time when it wrote the answer (it loads the MCP SDK after that, until stdin closes).
 */
function mcpToToolsList(dir: string, env: NodeJS.ProcessEnv): Promise<NodeRun> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, ['--require', answerCpuProbe(), BIN, '--dir', dir, 'mcp'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let wallMs = Number.NaN;
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (Number.isNaN(wallMs) && /"id":2[,}]/.test(out)) {
        wallMs = Number(process.hrtime.bigint() - start) / 1e6;
        child.stdin.end();
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0 || Number.isNaN(wallMs)) reject(new Error(`memctx mcp failed (${code}) before answering tools/list:\n${err}`));
      else resolve({ wallMs, cpuMs: Number(/answer-cpu-ms=([\d.]+)/.exec(err)?.[1] ?? Number.NaN) });
    });
    child.stdin.write(MCP_INPUT);
  });
}

/** A git repository with 200 memory files and a staged change that touches none of them (the common commit). */
function stagedRepo(work: string): { top: string; env: NodeJS.ProcessEnv } {
  const top = join(work, 'repo');
  mkdirSync(top, { recursive: true });
  const env = plainEnv({ HOME: work, GIT_CONFIG_NOSYSTEM: '1', GIT_CEILING_DIRECTORIES: dirname(work) });
  for (const key of Object.keys(env)) if (key.startsWith('GIT_DIR') || key === 'GIT_INDEX_FILE' || key === 'GIT_WORK_TREE') delete env[key];
  const git = (...args: string[]) => execFileSync('git', args, { cwd: top, env, stdio: ['ignore', 'pipe', 'pipe'] });
  git('init', '-q');
  git('config', 'user.name', 'bench');
  git('config', 'user.email', 'bench@example.com');
  git('config', 'commit.gpgsign', 'false');
  generateCorpus(join(top, '.memory'), 200, { seed: 3 });
  writeFileSync(join(top, 'src.txt'), 'one\n');
  runNode([BIN, 'index'], { cwd: top, env });
  git('add', '-A');
  git('commit', '-q', '-m', 'corpus');
  appendFileSync(join(top, 'src.txt'), 'two\n');
  git('add', 'src.txt');
  return { top, env };
}

/**
 * Each path's goal (issue 31): CPU time at most this many times `node -e 0`'s. The hooks' goals are 3× where
 * Node has a compile cache (>= 22.1) and 6× on Node 20; `mcp`'s is set for Node 24 only.
 */
function goals(withCompileCache: boolean): Record<string, number> {
  const hook = withCompileCache ? 3 : 6;
  return { statusline: 1.5, 'statusline window': 1.5, 'flush --hook': hook, checkpoint: hook, 'index --staged': hook, ...(withCompileCache ? { mcp: 4 } : {}) };
}

/**
 * The MCP SDK's own start-up, memctx's code aside: a script importing what src/mcp/sdk.ts takes from the
 * SDK (its server, stdio transport and types), with the compile cache where Node has one. `mcp` cannot
 * start below this.
 */
function sdkFloorScript(work: string): string {
  const file = join(work, 'sdk-floor.mjs');
  const modules = ['server/index.js', 'server/stdio.js', 'shared/stdio.js', 'types.js'].map((m) => import.meta.resolve(`@modelcontextprotocol/sdk/${m}`));
  writeFileSync(file, [
    "import * as nodeModule from 'node:module';",
    "import { join } from 'node:path';",
    "if (process.env.XDG_CACHE_HOME) nodeModule.enableCompileCache?.(join(process.env.XDG_CACHE_HOME, 'sdk-floor'));",
    ...modules.map((url) => `await import(${JSON.stringify(url)});`),
    '',
  ].join('\n'));
  return file;
}

const section: BenchSection = {
  name: 'startup',
  async run(work) {
    rmSync(work, { recursive: true, force: true });
    mkdirSync(work, { recursive: true });
    // The status line's input: Claude Code's JSON naming a 5 MB transcript (usage read from its tail).
    // The project is its own git repository outside this one, as users' projects are (the flush hook
    // runs `git status` in it: inside memctx's work tree that would walk bench/out).
    const project = mkdtempSync(join(tmpdir(), 'memctx-bench-startup-'));
    execFileSync('git', ['init', '-q'], { cwd: project, env: plainEnv(), stdio: 'ignore' });
    const mem = join(project, '.memory');
    generateCorpus(mem, 50, { seed: 9 });
    runNode([BIN, 'index'], { cwd: project });
    const transcript = join(work, 'session.jsonl');
    writeFileSync(transcript, claudeTranscript(project, 5e6));
    const statusJson = JSON.stringify({ hook_event_name: 'Status', session_id: 's', transcript_path: transcript, model: { id: 'claude-sonnet-4-5-20250929', display_name: 'Sonnet 4.5' } });
    // Claude Code's own figures with the session's folder: the window is recorded for the Stop hook (written only when it changes).
    const windowJson = JSON.stringify({ session_id: 's', cwd: project, transcript_path: transcript, model: { id: 'claude-sonnet-4-5-20250929', display_name: 'Sonnet 4.5' }, context_window: { context_window_size: 1_000_000, used_percentage: 17 } });
    // A small session for the flush hook (about 40 KB of transcript).
    const small = join(work, 'small.jsonl');
    writeFileSync(small, claudeTranscript(project, 40_000));
    const hookJson = JSON.stringify({ session_id: 'bench-small', transcript_path: small, cwd: project, hook_event_name: 'SessionEnd', reason: 'other' });
    // The Stop hook after a turn of that session: the message that just ended is the transcript's last.
    const lastLine = JSON.parse(readFileSync(small, 'utf8').trimEnd().split('\n').pop()!) as { message: { content: Array<{ text: string }> } };
    const stopJson = JSON.stringify({ session_id: 'bench-small', transcript_path: small, cwd: project, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: lastLine.message.content[0].text });
    const { top, env: gitEnv } = stagedRepo(work);
    const sdkFloor = sdkFloorScript(work);
    // The loader's own floors: one line printed by an ES module (the bin is one) and by a CommonJS file.
    const esmFloor = join(work, 'floor.mjs');
    const cjsFloor = join(work, 'floor.cjs');
    for (const file of [esmFloor, cjsFloor]) writeFileSync(file, "process.stdout.write('x\\n');\n");
    // The code cache: one the runs share (filled by the warm-up run), and one emptied before each first run.
    const warm = join(work, 'code-cache');
    const empty = join(work, 'code-cache-first');
    const withCache = (first: boolean, env: NodeJS.ProcessEnv = plainEnv()): NodeJS.ProcessEnv => {
      if (first) rmSync(empty, { recursive: true, force: true });
      return { ...env, XDG_CACHE_HOME: first ? empty : warm };
    };
    const flushHook = (first: boolean) => {
      rmSync(join(mem, 'sessions'), { recursive: true, force: true });
      return runNode([BIN, 'flush', '--hook'], { cwd: project, input: hookJson, env: withCache(first) });
    };
    const checkpoint = (first: boolean) => runNode([BIN, 'checkpoint'], { cwd: project, input: stopJson, env: withCache(first) });
    const staged = (first: boolean) => runNode([BIN, 'index', '--staged'], { cwd: top, env: withCache(first, gitEnv) });

    const paths: Array<{ name: string; label: string; run: () => NodeRun | Promise<NodeRun> }> = [
      { name: 'node', label: 'node -e 0 (the floor)', run: () => runNode(['-e', '0']) },
      { name: 'esm floor', label: 'an ES module printing one line (the floor of an ES-module bin)', run: () => runNode([esmFloor]) },
      { name: 'cjs floor', label: 'a CommonJS file printing one line', run: () => runNode([cjsFloor]) },
      { name: '--version', label: 'memctx --version', run: () => runNode([BIN, '--version']) },
      { name: 'statusline', label: 'status --statusline (5 MB transcript)', run: () => runNode([BIN, 'status', '--statusline'], { input: statusJson }) },
      { name: 'statusline window', label: "status --statusline, Claude Code's window in the project (recorded once)", run: () => runNode([BIN, 'status', '--statusline'], { input: windowJson }) },
      { name: 'flush --hook', label: 'flush --hook, small session (40 KB)', run: () => flushHook(false) },
      { name: 'flush --hook first', label: 'flush --hook, small session, first run (empty code cache)', run: () => flushHook(true) },
      { name: 'checkpoint', label: 'checkpoint (Stop hook), small session', run: () => checkpoint(false) },
      { name: 'checkpoint first', label: 'checkpoint, first run (empty code cache)', run: () => checkpoint(true) },
      { name: 'mcp', label: 'mcp: start to first tools/list answer', run: () => mcpToToolsList(mem, withCache(false)) },
      { name: 'mcp first', label: 'mcp: start to tools/list, first run (empty code cache)', run: () => mcpToToolsList(mem, withCache(true)) },
      { name: 'sdk floor', label: "the MCP SDK's modules alone (mcp's floor)", run: () => runNode([sdkFloor], { env: withCache(false) }) },
      { name: 'index --staged', label: 'index --staged, no memory file staged', run: () => staged(false) },
      { name: 'index --staged first', label: 'index --staged, first run (empty code cache)', run: () => staged(true) },
    ];
    const load = loadavg()[0];
    const runs = new Map<string, NodeRun[]>(paths.map((p) => [p.name, []]));
    for (const path of paths) await path.run(); // warm the disk cache
    for (let round = 0; round < 11; round++) {
      for (const path of paths) runs.get(path.name)!.push(await path.run());
    }
    const node = medians(runs.get('node')!);
    const GOALS = goals(typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === 'function');
    const rows: BenchRow[] = [];
    for (const path of paths) {
      const m = medians(runs.get(path.name)!);
      const cpuRatio = m.cpuMs / node.cpuMs;
      const goal = GOALS[path.name];
      rows.push({
        label: `${path.label}: wall, cpu (ratio to node -e 0)`,
        value: `${fmtMs(m.medianMs)}, ${fmtMs(m.cpuMs)} (${fmtRatio(m.medianMs / node.medianMs)}, ${fmtRatio(cpuRatio)})`,
        ...(goal ? { goal: `cpu ≤ ${goal}×`, ok: cpuRatio <= goal } : {}),
        data: { ...m, wallRatio: m.medianMs / node.medianMs, cpuRatio },
      });
    }
    rmSync(project, { recursive: true, force: true });
    rows.push({ label: `medians of 11 interleaved rounds on Node ${process.versions.node}; 1-min load ${load.toFixed(1)}→${loadavg()[0].toFixed(1)} on ${cpus().length} cores`, value: '' });
    return rows;
  },
};

export default section;
