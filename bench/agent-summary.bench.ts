/**
 * The agent's own summary: what the Stop hook (`memctx checkpoint`, run after every agent turn) and
 * the SessionEnd flush that keeps an agent-written summary cost on a 20 MB Claude Code transcript.
 */
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { generateCorpus } from './corpus.js';
import { claudeTranscript } from './flush.bench.js';
import { fmtMs, timeMemctx, stateFolder } from './measure.js';
import type { BenchSection } from './run.js';

const section: BenchSection = {
  name: 'agent-summary',
  async run(work) {
    const project = join(work, 'project');
    rmSync(project, { recursive: true, force: true });
    const mem = join(project, '.memory');
    generateCorpus(mem, 200, { seed: 7 });
    timeMemctx(['index'], { cwd: project, runs: 1 });
    const transcript = join(work, 'session.jsonl');
    const text = claudeTranscript(project, 20 * 1024 * 1024);
    writeFileSync(transcript, text);
    const mb = Buffer.byteLength(text) / (1024 * 1024);
    const last = JSON.parse(text.trimEnd().split('\n').pop()!).message.content[0].text as string;
    const stop = JSON.stringify({ session_id: 'bench-session', transcript_path: transcript, cwd: project, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: last });
    const checkpoints = join(stateFolder(mem), 'checkpoints.json');

    // Below the threshold (every turn until 80%), and asking (the state cleared before each run).
    const quiet = timeMemctx(['checkpoint', '--at', '100'], { cwd: project, input: stop, runs: 7 });
    const asking = timeMemctx(['checkpoint', '--at', '1'], { cwd: project, input: stop, runs: 7, before: () => rmSync(checkpoints, { force: true }) });
    if (!/asked the agent for its summary/.test(readFileSync(join(stateFolder(mem), 'flush.log'), 'utf8'))) throw new Error('checkpoint never asked');

    // SessionEnd after the agent's summary: the summary call near the end, one file written after it.
    const flushCall = { type: 'assistant', sessionId: 'bench-session', cwd: project, message: { id: 'msg_flush', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_flush', name: 'mcp__memctx__flush', input: {} }] } };
    const write = { type: 'assistant', sessionId: 'bench-session', cwd: project, message: { id: 'msg_after', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_after', name: 'Write', input: { file_path: join(project, 'docs/after.md'), content: 'x' } }] } };
    appendFileSync(transcript, `${JSON.stringify(flushCall)}\n${JSON.stringify(write)}\n`);
    const summary = ['--goal', 'Refactor', '--progress', 'p', '--decision', 'd because e', '--changed', 'src/a.ts', '--blocker', 'none', '--next', 'n'];
    const end = JSON.stringify({ session_id: 'bench-session', transcript_path: transcript, cwd: project, hook_event_name: 'SessionEnd', reason: 'other' });
    const sessions = join(mem, 'sessions');
    const kept = timeMemctx(['flush', '--hook'], {
      cwd: project,
      input: end,
      runs: 7,
      before: () => {
        rmSync(sessions, { recursive: true, force: true });
        timeMemctx(['flush', '--agent-summary', '--session-id', 'bench-session', ...summary], { cwd: project, runs: 1 });
      },
    });
    const log = readFileSync(join(stateFolder(mem), 'flush.log'), 'utf8').trim().split('\n').pop() ?? '';
    if (!/kept the agent's summary .*revised with 1 file/.test(log)) throw new Error(`flush --hook did not keep the agent's summary: ${log}`);
    const load = loadavg()[0].toFixed(1);
    return [
      { label: `checkpoint (Stop hook), ${mb.toFixed(1)} MB transcript, below the threshold: wall`, value: fmtMs(quiet.medianMs), goal: '≤ 0.5 s', ok: quiet.medianMs <= 500, data: { ...quiet, loadAverage: load } },
      { label: 'checkpoint, same, asking the agent: wall', value: fmtMs(asking.medianMs), data: { ...asking } },
      { label: `flush --hook keeping the agent's summary, ${mb.toFixed(1)} MB: wall`, value: fmtMs(kept.medianMs), goal: '≤ 1.2 s', ok: kept.medianMs <= 1200, data: { ...kept } },
      { label: 'load average (1 min) at the end', value: load },
    ];
  },
};

export default section;
