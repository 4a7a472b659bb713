/**
 * `flush --hook --summarize-with claude|codex`: after the SessionEnd hook has written the offline
 * summary, it saves a job in the state folder and starts a detached worker (summary-worker.ts) that
 * asks the agent's headless mode for the six fields; the hook itself never waits for the answer.
 * Here: the prompt (a capped rendition of the transcript) and the start.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { compactTranscript } from '../../kernel/capacity/compact.js';
import { agentSummaryRules } from '../../kernel/summary/limits.js';
import { SUMMARY_JOB_ENV } from '../../kernel/summary/summarizers.js';
import { saveSummaryJob, type SummaryJob } from '../../kernel/state/summary-jobs.js';
import type { Transcript } from '../../kernel/transcript/types.js';

// for flush.ts, which loads the jobs' state only where it may start one (not on the hook's common path)
export { runningSummaryJob } from '../../kernel/state/summary-jobs.js';

/** At most this many tokens of the compacted transcript go into the prompt (its start and its end). */
const PROMPT_TRANSCRIPT_TOKENS = 16_000;
/** Of those, this share is the session's start (the request); the rest its end (the final state). */
const HEAD_SHARE = 0.25;

/** The text `count` measures at most `cap` tokens: its first and last lines, with a line saying how much of the middle was left out. */
export function capText(text: string, cap: number, count: (text: string) => number): { text: string; total: number; left: number } {
  const total = count(text);
  if (total <= cap) return { text, total, left: 0 };
  let chars = Math.floor((text.length * cap) / total);
  for (let tries = 0; tries < 4; tries++) {
    const cut = headAndTail(text, chars, total);
    const used = count(cut.text);
    if (used <= cap) return { text: cut.text, total, left: total - used };
    chars = Math.floor((chars * cap) / used) - 16;
  }
  return { text: headAndTail(text, 0, total).text, total, left: total };
}

function headAndTail(text: string, chars: number, total: number): { text: string } {
  const head = text.slice(0, Math.floor(chars * HEAD_SHARE));
  const tail = text.slice(text.length - (chars - head.length));
  const whole = (s: string, fromEnd: boolean) => (fromEnd ? s.slice(s.indexOf('\n') + 1) : s.slice(0, Math.max(0, s.lastIndexOf('\n'))));
  return { text: `${whole(head, false)}\n\n[… memctx left out the middle of the session (it was ${total} tokens) …]\n\n${whole(tail, true)}` };
}

/** What the headless agent is asked: the fields, the rules the agent path holds, memctx's draft and the capped transcript. */
export function headlessPrompt(transcript: Transcript, draft: string, limits: { target: number; max: number; cap?: number }, count: (text: string) => number): { prompt: string; transcriptTokens: number } {
  const { markdown } = compactTranscript(transcript, { header: ['# Transcript (compacted by memctx)'] });
  const capped = capText(markdown, limits.cap ?? PROMPT_TRANSCRIPT_TOKENS, count);
  const prompt = [
    'Summarize this coding-agent session, which has just ended, for the next session to resume from.',
    'Answer with one JSON object and nothing else, with exactly these keys, each a list of short strings:',
    '  "goal": the request the session\'s work answered, as an ask',
    '  "progress": what was completed, ending with the final state (committed, pushed, tests passing)',
    '  "decisions": what was decided and why, as whole sentences',
    '  "changed_files": the files changed, relative to the working directory',
    '  "blockers": what is still failing at the end (not a failure fixed later)',
    '  "next_steps": what is open at the end, including a request left unanswered',
    agentSummaryRules(limits.target, limits.max),
    '',
    "memctx's draft, read from the transcript and git without a model (correct it where the transcript says otherwise):",
    draft.trim(),
    '',
    capped.text,
  ].join('\n');
  return { prompt, transcriptTokens: count(capped.text) };
}

/** The worker's module (summary-worker.js beside this one, as the build writes it). */
const WORKER = fileURLToPath(new URL('./summary-worker.js', import.meta.url));

export type StartWorker = (jobPath: string, options: { cwd: string; env: Record<string, string | undefined> }) => void;

/** Start the worker detached: its own process group, no stdio, not waited for; the guard set in its environment. */
const startWorker: StartWorker = (jobPath, { cwd, env }) => {
  const child = spawn(process.execPath, [WORKER, jobPath], { cwd, env: { ...env, [SUMMARY_JOB_ENV]: '1' }, detached: true, stdio: 'ignore' });
  child.on('error', () => undefined);
  child.unref();
};

/** Save the job and start its worker; the job's file, or undefined when there is no state folder to keep it in. */
export async function startSummaryJob(job: SummaryJob, deps: { env: Record<string, string | undefined>; startWorker?: StartWorker }): Promise<string | undefined> {
  const path = await saveSummaryJob(job);
  if (path) (deps.startWorker ?? startWorker)(path, { cwd: job.cwd, env: deps.env });
  return path;
}
