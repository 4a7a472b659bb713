/**
 * `memctx checkpoint`: Claude Code's Stop hook. When the context has crossed a threshold (default
 * 80%) for the first time in this session, it asks the agent to save its session summary (design §7).
 * It never fails the session: every problem is logged to the flush log (the state folder) and nothing is asked.
 */
import { resolve } from 'node:path';
import { MemctxError } from '../../kernel/errors.js';
import { openTranscriptFile, transcriptPath, type TranscriptFile } from '../../kernel/sources/transcript-file.js';
import { appendFlushLog, hookFailureText, logHookFailure } from '../../kernel/state/flush-log.js';
import { isoTimestamp } from '../../kernel/store/schema.js';
import { HOOK_STDIN_WAIT_MS, parseHookInput, type HookInput } from '../../kernel/summary/hook-input.js';
import { findMemoryDir } from '../../kernel/store/find.js';
import { askThresholds } from '../../kernel/sources/config.js';
import { parseAskAt } from '../../kernel/sources/config-schema.js';
import { resolveStatus } from '../../kernel/capacity/schema.js';
import { CLI_LABEL, fromFlags } from '../../kernel/schema.js';
import { DEFAULT_ASK_AT, decideCheckpoint, askText } from './ask.js';
import { status } from '../../kernel/capacity/measure.js';
import { readAsked, writeAsked } from './cache.js';
import { readSessionWindow } from '../../kernel/state/windows.js';
import { ARG_LABEL, type Label } from '../../kernel/schema.js';
import { resolveCheckpoint, type CheckpointOptions, type CheckpointRequest } from './schema.js';
import { DEFAULT_TARGET, DEFAULT_MAX } from '../../kernel/summary/limits.js';

export interface CheckpointDeps {
  cwd: string;
  env: Record<string, string | undefined>;
  home: string;
  now: () => Date;
  readStdin: (maxBytes?: number, timeoutMs?: number) => Promise<string>;
  dir?: string;
  claude?: boolean;
  sleep?: (ms: number) => Promise<void>;
}

export interface CheckpointResult {
  /** What the agent is asked to do; undefined when nothing is asked. */
  ask?: string;
  /** Why nothing was asked, or what went wrong. */
  why?: string;
  percent?: number;
  /** False when the message that just ended never reached the transcript within the wait. */
  settled?: boolean;
}

const POLL_MS = 50;

/** The thresholds to ask at: `--at`, else the memory directory's setting (a bad one is logged), else 80%. */
function thresholdsFor(options: CheckpointRequest, root: string, logPrefix: string): number[] {
  if (options.at !== undefined) return options.at;
  const configured = askThresholds(root, parseAskAt);
  if (configured.problem) appendFlushLog(root, `${logPrefix} warning: ${configured.problem}; asking at 80%`);
  return configured.thresholds ?? DEFAULT_ASK_AT;
}

/** The window Claude Code reported to the status line for this session, over a guess from the model id. */
function windowRequest(options: CheckpointRequest, root: string, sessionId: string) {
  const recorded = options.window === undefined ? readSessionWindow(root, sessionId) : undefined;
  return resolveStatus(fromFlags({ window: options.window ?? (recorded === undefined ? undefined : String(recorded)), model: recorded === undefined ? options.model : undefined }), CLI_LABEL);
}

/** How long the hook waited for the transcript, as a note for the log ('' when it did not wait). */
function lateNote(waited: number, waitMs: number): string {
  if (waited < 0) return ` (the message that just ended was not in the transcript after ${waitMs} ms; read what was there)`;
  return waited > 0 ? `; waited ${waited} ms for the transcript` : '';
}

/** Why the agent was not asked. */
function notAskedWhy(continuing: boolean, thresholds: number[], percent: number): string {
  if (continuing) return 'already continuing for a Stop hook';
  return thresholds.some((t) => percent >= t) ? 'already asked at this threshold' : `below ${thresholds[0]}%`;
}

/** The Stop hook's use case. `input` is checked here, inside the hook's catch: a bad flag is logged, never an exit code. */
export async function checkpoint(input: CheckpointOptions, deps: CheckpointDeps, label: Label = ARG_LABEL): Promise<CheckpointResult> {
  const stamp = isoTimestamp(deps.now());
  let root: string | undefined;
  let event = 'Stop';
  try {
    const hook = parseHookInput(await deps.readStdin(1024 * 1024, HOOK_STDIN_WAIT_MS));
    event = `${hook.event ?? 'Stop'}${hook.sessionId ? ` session=${hook.sessionId}` : ''}`;
    const cwd = resolve(deps.cwd, hook.cwd ?? '.');
    root = findMemoryDir({ dir: deps.dir, claude: deps.claude, cwd, env: deps.env, home: deps.home, confined: true });
    const options = resolveCheckpoint(input, label);
    if (!hook.transcriptPath) throw new MemctxError('the hook input has no transcript_path');
    if (!hook.sessionId) throw new MemctxError('the hook input has no session_id');
    const thresholds = thresholdsFor(options, root, `${stamp} ${event}`);

    const transcript = transcriptPath(hook.transcriptPath, cwd, deps.home);
    const waited = await waitForTranscript(transcript, awaitedSnippet(hook), options.waitMs, deps.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms))));
    const { report } = await status(transcript, windowRequest(options, root, hook.sessionId), { cwd, home: deps.home, env: deps.env, readStdinBytes: async () => Buffer.alloc(0) });
    const asked = readAsked(root, hook.sessionId);
    const decision = decideCheckpoint(report.percent, thresholds, asked, Boolean(hook.stopHookActive));
    if (decision.asked.join() !== asked.join()) await writeAsked(root, hook.sessionId, decision.asked, stamp);
    const percent = Math.floor(report.percent);
    const settled = waited >= 0;
    const late = lateNote(waited, options.waitMs);
    if (decision.ask === undefined) {
      return { why: `${percent}%: ${notAskedWhy(Boolean(hook.stopHookActive), thresholds, report.percent)}${late}`, percent: report.percent, settled };
    }
    const ask = askText({ percent, used: report.used, window: report.window, threshold: decision.ask, sessionId: hook.sessionId, cli: options.cli, target: DEFAULT_TARGET, max: DEFAULT_MAX });
    appendFlushLog(root, `${stamp} ${event} asked the agent for its summary at ${percent}% (threshold ${decision.ask}%)${late}`);
    return { ask, percent: report.percent, settled };
  } catch (err) {
    const message = hookFailureText(err as MemctxError);
    logHookFailure(root, `${event} checkpoint`, message, deps.now());
    return { why: message };
  }
}

/**
 * What the transcript holds once the message that just ended is on disk: for Stop, the start of that
 * message's text; for PostToolUse, its tool call's id as Claude Code writes it (`"id":"toolu_…"`).
 */
function awaitedSnippet(hook: HookInput): string | undefined {
  if (hook.toolUseId) return `"id":${JSON.stringify(hook.toolUseId)}`;
  const line = hook.lastMessage?.split('\n').find((l) => l.trim() !== '')?.trim();
  return line ? JSON.stringify(Array.from(line).slice(0, 60).join('')).slice(1, -1) : undefined;
}

/**
 * Claude Code writes the transcript asynchronously: the message that just ended (sometimes the
 * file) may not be on disk when the hook starts. Wait, at most `waitMs`, until the file holds the
 * snippet. The milliseconds waited, or -1 when it never did.
 */
async function waitForTranscript(path: string, snippet: string | undefined, waitMs: number, sleep: (ms: number) => Promise<void>): Promise<number> {
  // process.hrtime, not performance.now(): the global `performance` loads perf_hooks (8-14 M instructions)
  const started = process.hrtime.bigint();
  const elapsed = () => Number(process.hrtime.bigint() - started) / 1e6;
  for (let first = true; ; first = false) {
    if (holds(path, snippet)) return first ? 0 : Math.max(1, Math.round(elapsed()));
    if (elapsed() >= waitMs) return -1;
    await sleep(POLL_MS);
  }
}

/** True when the file exists and (with a snippet) its last megabyte of lines contains it. */
function holds(path: string, snippet: string | undefined): boolean {
  let file: TranscriptFile;
  try {
    file = openTranscriptFile(path);
  } catch {
    return false;
  }
  try {
    if (snippet === undefined) return true;
    let bytes = 0;
    for (const chunk of file.linesBackward()) {
      if (chunk.lines.some((l) => l.includes(snippet))) return true;
      bytes += chunk.lines.reduce((sum, l) => sum + l.length + 1, 0);
      if (bytes > 1 << 20 || chunk.atStart) return false;
    }
    return false;
  } catch {
    return false;
  } finally {
    file.close();
  }
}
