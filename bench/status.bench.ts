/**
 * `memctx status` figures: recorded usage read from the end of a Claude Code JSONL (1 MB vs 100 MB),
 * the status line, counting a plain transcript, and two pathological 5 MB inputs.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rng } from './corpus.js';
import { fmtMs, fmtRatio, median, REPO, timeMemctx, timeProcess } from './measure.js';
import type { BenchSection } from './run.js';

const WORDS = 'auth token session cache index budget memory agent refactor migration schema database query latency deploy rollback review test fixture parser module service handler request response queue worker retry timeout config'.split(' ');

function words(r: () => number, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(WORDS[Math.floor(r() * WORDS.length)]);
  return out.join(' ');
}

/** About 1 MB of Claude Code JSONL lines: prompts, tool calls, tool results, assistant usage. */
function claudeBlock(r: () => number, start: number): string {
  const lines: string[] = [];
  let size = 0;
  let i = start;
  while (size < 1_000_000) {
    const id = `msg_${i}`;
    const tool = `toolu_${i}`;
    const usage = { input_tokens: 4, cache_creation_input_tokens: 300 + (i % 500), cache_read_input_tokens: 20_000 + (i % 90_000), output_tokens: 120 };
    const batch = [
      { type: 'user', isSidechain: false, sessionId: 's', uuid: `u${i}`, message: { role: 'user', content: words(r, 20) } },
      { type: 'assistant', isSidechain: false, sessionId: 's', uuid: `a${i}`, message: { id, role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [{ type: 'tool_use', id: tool, name: 'Bash', input: { command: `npm test -- ${words(r, 2)}` } }], usage } },
      { type: 'user', isSidechain: false, sessionId: 's', uuid: `r${i}`, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: tool, content: Array.from({ length: 20 }, () => words(r, 12)).join('\n') }] } },
    ];
    for (const o of batch) {
      const line = JSON.stringify(o);
      lines.push(line);
      size += line.length + 1;
    }
    i++;
  }
  return `${lines.join('\n')}\n`;
}

const FINAL = `${JSON.stringify({ type: 'assistant', isSidechain: false, sessionId: 's', uuid: 'last', message: { id: 'msg_last', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [{ type: 'text', text: 'done' }], usage: { input_tokens: 6, cache_creation_input_tokens: 1500, cache_read_input_tokens: 150_000, output_tokens: 300 } } })}\n`;

function writeClaude(path: string, megabytes: number): number {
  const r = rng(7);
  writeFileSync(path, '');
  for (let m = 0; m < megabytes; m++) appendFileSync(path, claudeBlock(r, m * 100_000));
  appendFileSync(path, FINAL);
  return statSync(path).size;
}

/** About 1 MB of a plain Markdown conversation. */
function plainTranscript(): string {
  const r = rng(11);
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < 1_000_000; i++) {
    const speaker = ['## User', '## Assistant', '## Tool result'][i % 3];
    const body = i % 3 === 2 ? Array.from({ length: 15 }, (_, k) => `${k + 1}: ${words(r, 10)} ${Math.floor(r() * 1e6)}`).join('\n') : words(r, 60);
    const part = `${speaker}\n\n${body}\n\n`;
    parts.push(part);
    size += part.length;
  }
  return parts.join('');
}

/** Tokenizer load and counting throughput, in a fresh process. */
function countInFreshProcess(file: string): { loadMs: number; countMs: number; tokens: number; bytes: number } {
  const script = `
    const { readFileSync } = require('node:fs');
    (async () => {
      const text = readFileSync(${JSON.stringify(file)}, 'utf8');
      let t = process.hrtime.bigint();
      const { loadTokenCounter } = await import(${JSON.stringify(join(REPO, 'dist/src/kernel/tokens/index.js'))});
      const counter = await loadTokenCounter();
      const loadMs = Number(process.hrtime.bigint() - t) / 1e6;
      t = process.hrtime.bigint();
      const tokens = counter.count(text);
      const countMs = Number(process.hrtime.bigint() - t) / 1e6;
      console.log(JSON.stringify({ loadMs, countMs, tokens, bytes: Buffer.byteLength(text) }));
    })();`;
  const runs: { loadMs: number; countMs: number; tokens: number; bytes: number }[] = [];
  for (let i = 0; i < 5; i++) runs.push(JSON.parse(spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' }).stdout));
  const med = (k: 'loadMs' | 'countMs') => runs.map((x) => x[k]).sort((a, b) => a - b)[2];
  return { loadMs: med('loadMs'), countMs: med('countMs'), tokens: runs[0].tokens, bytes: runs[0].bytes };
}

/** CPU time (user + system) of `memctx ARGS`, median of `runs`: steadier than wall time on a busy machine. */
function cpuMemctx(hook: string, args: string[], options: { input?: string; runs?: number } = {}): number {
  const cpu: number[] = [];
  for (let i = 0; i < (options.runs ?? 5); i++) {
    const r = spawnSync(process.execPath, ['--import', hook, join(REPO, 'bin/memctx.js'), ...args], { input: options.input ?? '', encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 1 << 30 });
    const m = /MEMCTX_CPU_MS=(\d+(?:\.\d+)?)/.exec(r.stderr);
    if (!m) throw new Error(`no CPU figure from memctx ${args.join(' ')}: ${r.stderr}`);
    cpu.push(Number(m[1]));
  }
  return median(cpu);
}

const section: BenchSection = {
  name: 'status',
  async run(work) {
    rmSync(work, { recursive: true, force: true });
    mkdirSync(work, { recursive: true });
    const small = join(work, 'claude-1mb.jsonl');
    const big = join(work, 'claude-100mb.jsonl');
    const smallBytes = writeClaude(small, 1);
    const bigBytes = writeClaude(big, 100);
    const hook = join(work, 'cpu-hook.mjs');
    writeFileSync(hook, "process.on('exit', () => { const u = process.cpuUsage(); process.stderr.write(`MEMCTX_CPU_MS=${(u.user + u.system) / 1000}\\n`); });\n");
    const node = timeProcess(['-e', ''], { runs: 9 });
    const nodeCpu = cpuMemctx(hook, ['--version'], { runs: 9 });
    const s1 = timeMemctx(['status', small], { runs: 9 });
    const s100 = timeMemctx(['status', big], { runs: 9 });
    const ratio = s100.medianMs / s1.medianMs;
    const s1Cpu = cpuMemctx(hook, ['status', small], { runs: 9 });
    const s100Cpu = cpuMemctx(hook, ['status', big], { runs: 9 });

    const statusJson = JSON.stringify({ hook_event_name: 'Status', session_id: 's', transcript_path: big, model: { id: 'claude-sonnet-4-5-20250929', display_name: 'Sonnet 4.5' }, context_window: { context_window_size: 200_000, used_percentage: 42, current_usage: { input_tokens: 4, cache_creation_input_tokens: 1000, cache_read_input_tokens: 83_000, output_tokens: 10 } } });
    const line = timeMemctx(['status', '--statusline'], { input: statusJson, runs: 9 });
    const lineCpu = cpuMemctx(hook, ['status', '--statusline'], { input: statusJson, runs: 9 });
    const tailJson = JSON.stringify({ transcript_path: big, model: { id: 'claude-sonnet-4-5-20250929' } });
    const lineTail = timeMemctx(['status', '--statusline'], { input: tailJson, runs: 9 });

    const plain = join(work, 'plain-1mb.md');
    writeFileSync(plain, plainTranscript());
    const counted = countInFreshProcess(plain);
    const plainStatus = timeMemctx(['status', plain], { runs: 5 });

    const b64 = join(work, 'base64-5mb.txt');
    const r = rng(3);
    const raw = Buffer.alloc(3_750_000);
    for (let i = 0; i < raw.length; i++) raw[i] = Math.floor(r() * 256);
    writeFileSync(b64, raw.toString('base64'));
    const run = join(work, 'run-5mb.txt');
    writeFileSync(run, 'a'.repeat(5_000_000));
    const b64Status = timeMemctx(['status', b64], { runs: 3 });
    const runStatus = timeMemctx(['status', run], { runs: 3 });
    const b64Cpu = cpuMemctx(hook, ['status', b64], { runs: 3 });
    const runCpu = cpuMemctx(hook, ['status', run], { runs: 3 });

    const mbs = counted.bytes / 1e6 / (counted.countMs / 1000);
    return [
      { label: 'node start-up (empty script), wall', value: fmtMs(node.medianMs), data: { ...node } },
      { label: 'memctx --version, CPU', value: fmtMs(nodeCpu), data: { cpuMs: nodeCpu } },
      { label: `status, Claude JSONL with usage, ${(smallBytes / 1e6).toFixed(1)} MB`, value: fmtMs(s1.medianMs), goal: '≤ 150 ms', ok: s1.medianMs <= 150, data: { ...s1, bytes: smallBytes } },
      { label: `status, Claude JSONL with usage, ${(bigBytes / 1e6).toFixed(0)} MB`, value: fmtMs(s100.medianMs), goal: '≤ 150 ms', ok: s100.medianMs <= 150, data: { ...s100, bytes: bigBytes } },
      { label: 'status 100 MB / status 1 MB, wall', value: fmtRatio(ratio), goal: 'same within noise (≤ 1.3×)', ok: ratio <= 1.3 },
      { label: 'status, 1 MB / 100 MB, CPU', value: `${fmtMs(s1Cpu)} / ${fmtMs(s100Cpu)}`, data: { s1Cpu, s100Cpu } },
      { label: 'status --statusline, context_window on stdin', value: fmtMs(line.medianMs), goal: '≤ 150 ms', ok: line.medianMs <= 150, data: { ...line } },
      { label: 'status --statusline, context_window on stdin, CPU', value: fmtMs(lineCpu), data: { cpuMs: lineCpu } },
      { label: 'status --statusline, usage from the 100 MB transcript', value: fmtMs(lineTail.medianMs), goal: '≤ 150 ms', ok: lineTail.medianMs <= 150, data: { ...lineTail } },
      { label: 'tokenizer load (o200k_base), fresh process', value: fmtMs(counted.loadMs), data: { loadMs: counted.loadMs } },
      { label: `count 1 MB plain transcript (${counted.tokens.toLocaleString('en-US')} tokens)`, value: `${mbs.toFixed(1)} MB/s`, data: { ...counted, mbPerS: mbs } },
      { label: 'status, 1 MB plain transcript (counted), wall', value: fmtMs(plainStatus.medianMs), data: { ...plainStatus } },
      { label: 'status, 5 MB single base64 line (counted), wall', value: fmtMs(b64Status.medianMs), goal: '≤ 3 s', ok: b64Status.medianMs <= 3000, data: { ...b64Status } },
      { label: 'status, 5 MB run of one character (counted), wall', value: fmtMs(runStatus.medianMs), goal: '≤ 3 s', ok: runStatus.medianMs <= 3000, data: { ...runStatus } },
      { label: 'status, 5 MB base64 / 5 MB run, CPU', value: `${fmtMs(b64Cpu)} / ${fmtMs(runCpu)}`, data: { b64Cpu, runCpu } },
    ];
  },
};

export default section;
