import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateCorpus, rng } from './corpus.js';
import { fmtMs, median, timeMemctx, timeProcess, type Timed, stateFolder } from './measure.js';
import type { BenchSection } from './run.js';

const WORDS = 'auth token session cache index budget memory agent refactor migration schema database query latency deploy rollback review parser handler request response queue worker retry timeout config'.split(' ');

function words(r: () => number, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(WORDS[Math.floor(r() * WORDS.length)]);
  return out.join(' ');
}

/**
 * A Claude Code JSONL transcript of about `bytes`: user prompts, assistant text (a few marked
 * DECISION:/BLOCKER:/TODO: lines), Read/Bash/Edit/Write tool calls and long tool outputs, usage on
 * every assistant line, and a compaction boundary half-way.
 */
export function claudeTranscript(project: string, bytes: number, seed = 5): string {
  const r = rng(seed);
  const lines: string[] = [];
  let size = 0;
  let n = 0;
  const push = (o: object) => {
    const line = JSON.stringify({ parentUuid: `u${n - 1}`, isSidechain: false, userType: 'external', cwd: project, sessionId: 'bench-session', version: '2.0.14', gitBranch: 'main', uuid: `u${n++}`, timestamp: '2026-11-21T15:30:12.000Z', ...o });
    lines.push(line);
    size += line.length + 1;
  };
  const usage = () => ({ input_tokens: 10, cache_creation_input_tokens: 1200, cache_read_input_tokens: Math.floor(r() * 150_000), output_tokens: 400 });
  const assistant = (content: object[]) => push({ type: 'assistant', message: { id: `msg_${n}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content, usage: usage() } });
  push({ type: 'user', message: { role: 'user', content: `Refactor the ${words(r, 3)} module\n${words(r, 40)}` } });
  let boundary = false;
  for (let turn = 0; size < bytes; turn++) {
    if (!boundary && size > bytes / 2) {
      push({ type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted', compactMetadata: { trigger: 'auto', preTokens: 160_000, postTokens: 14_000 } });
      boundary = true;
    }
    const marker = turn % 40 === 0 ? `\n\nDECISION: ${words(r, 10)}` : turn % 55 === 0 ? `\nBLOCKER: ${words(r, 8)}` : turn % 33 === 0 ? `\nTODO: ${words(r, 6)}` : '';
    const file = `${project}/src/${WORDS[turn % WORDS.length]}/${words(r, 1)}${turn % 50}.ts`;
    const tool = ['Read', 'Bash', 'Edit', 'Write', 'Grep'][turn % 5];
    const input = tool === 'Bash' ? { command: `npm test -- ${words(r, 2)}`, description: words(r, 5) } : tool === 'Grep' ? { pattern: words(r, 1), path: project } : tool === 'Read' ? { file_path: file } : { file_path: file, old_string: words(r, 6), new_string: words(r, 8), content: tool === 'Write' ? words(r, 200) : undefined };
    assistant([{ type: 'text', text: `${words(r, 30)}${marker}` }, { type: 'tool_use', id: `toolu_${turn}`, name: tool, input }]);
    const outputLines = 20 + Math.floor(r() * 200);
    const output = Array.from({ length: outputLines }, (_, i) => `${String(i + 1).padStart(5)}\t${words(r, 9)}`).join('\n');
    push({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${turn}`, content: output, is_error: turn % 97 === 0 } ] } });
    if (turn % 25 === 0) push({ type: 'user', message: { role: 'user', content: words(r, 25) } });
  }
  assistant([{ type: 'text', text: `Done: ${words(r, 8)}\n\nNext steps:\n- ${words(r, 6)}\n- ${words(r, 7)}` }]);
  return `${lines.join('\n')}\n`;
}

const section: BenchSection = {
  name: 'flush',
  async run(work) {
    // The project is its own git repository outside this one, as users' projects are: inside memctx's
    // work tree the hook's `git log` since the transcript's start would walk memctx's own history.
    mkdirSync(work, { recursive: true });
    const project = mkdtempSync(join(tmpdir(), 'memctx-bench-flush-'));
    execFileSync('git', ['init', '-q'], { cwd: project, stdio: 'ignore' });
    const mem = join(project, '.memory');
    generateCorpus(mem, 200, { seed: 7 });
    const transcriptPath = join(work, 'session.jsonl');
    const text = claudeTranscript(project, 20 * 1024 * 1024);
    writeFileSync(transcriptPath, text);
    const mb = Buffer.byteLength(text) / (1024 * 1024);
    const input = JSON.stringify({ session_id: 'bench-session', transcript_path: transcriptPath, cwd: project, hook_event_name: 'SessionEnd', reason: 'other' });
    const clean = () => rmSync(join(mem, 'sessions'), { recursive: true, force: true });
    timeMemctx(['index'], { cwd: project, runs: 1 });
    // CPU time of the memctx process itself (user + sys), reported at exit by a preloaded script: on
    // a shared, loaded machine it is a steadier guide to the idle wall time than the wall time is.
    const cpuFile = join(work, 'cpu.jsonl');
    const preload = join(work, 'cpu.cjs');
    writeFileSync(preload, `process.on('exit', () => { const u = process.cpuUsage(); require('fs').appendFileSync(${JSON.stringify(cpuFile)}, JSON.stringify({ ms: (u.user + u.system) / 1000 }) + '\\n'); });\n`);
    const withCpu = (fn: () => Timed): Timed & { cpuMedianMs: number } => {
      rmSync(cpuFile, { force: true });
      const timed = fn();
      const cpu = readFileSync(cpuFile, 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { ms: number }).ms);
      return { ...timed, cpuMedianMs: median(cpu) };
    };
    const env = { NODE_OPTIONS: `--require ${preload}` };
    const hook = withCpu(() => timeMemctx(['flush', '--hook'], { cwd: project, input, runs: 7, before: clean, env }));
    const log = readFileSync(join(stateFolder(mem), 'flush.log'), 'utf8').trim().split('\n');
    const last = log[log.length - 1];
    if (!/ wrote sessions\//.test(last) || !existsSync(join(mem, 'sessions'))) throw new Error(`flush --hook did not write a session: ${last}`);
    const plain = withCpu(() => timeMemctx(['flush', '--goal', 'Bench', '--next', 'n'], { cwd: project, runs: 7, before: clean, env }));
    const node = withCpu(() => timeProcess(['-e', ''], { runs: 7, env }));
    rmSync(project, { recursive: true, force: true });
    return [
      { label: `flush --hook, ${mb.toFixed(1)} MB Claude Code transcript: wall`, value: fmtMs(hook.medianMs), goal: '≤ 0.5 s', ok: hook.medianMs <= 500, data: { ...hook, bytes: Buffer.byteLength(text) } },
      { label: 'flush --hook, same: CPU time of the process', value: fmtMs(hook.cpuMedianMs) },
      { label: 'flush from options only (tokenizer, write, index of 200): wall', value: fmtMs(plain.medianMs), data: { ...plain } },
      { label: 'flush from options only: CPU time', value: fmtMs(plain.cpuMedianMs) },
      { label: 'node start-up (empty script): wall / CPU', value: `${fmtMs(node.medianMs)} / ${fmtMs(node.cpuMedianMs)}`, data: { ...node } },
    ];
  },
};

export default section;
