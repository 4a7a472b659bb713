/**
 * The background summary's worker (started detached by summary-job.ts, `node summary-worker.js JOB`):
 * it asks the agent's headless mode for the six fields, bounded in time (killed at the job's limit)
 * and in tokens (the capped prompt), and replaces the offline summary only with an answer that parses
 * into the six fields and passes every check of the agent's own summary (`flush --agent-summary`: all
 * six fields, within the maximum, no pasted block, no secret, outside paths marked), written through
 * the flush use case. Anything else leaves the offline summary. One line in the flush log either way.
 */
import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { MemctxError } from '../../kernel/errors.js';
import { appendFlushLog, logHookFailure } from '../../kernel/state/flush-log.js';
import { readSummaryJob, removeSummaryJob, type SummaryJob } from '../../kernel/state/summary-jobs.js';
import { isoTimestamp } from '../../kernel/store/schema.js';
import { readRegularFile } from '../../kernel/store/read-file.js';
import { resolveMemoryPath } from '../../kernel/store/paths.js';
import { SUMMARY_JOB_ENV } from '../../kernel/summary/summarizers.js';
import { readTranscriptText } from '../../kernel/sources/transcript-file.js';
import { readTranscript } from '../../kernel/transcript/index.js';
import { isEncodingName } from '../../kernel/tokens/encodings.js';
import { smallTextCounter } from '../../kernel/tokens/small.js';
import { readMemoryFile, isProblem } from '../../kernel/store/scan.js';
import * as flushCore from './core.js';
import { flush, FlushRefused, sessionMeta } from './flush.js';
import { headlessCommand, readHeadlessOutput } from './headless.js';
import { headlessPrompt } from './summary-job.js';
import { parseSummary, runProgram, type RunProgram } from './summarize.js';

export interface WorkerDeps {
  env: Record<string, string | undefined>;
  home: string;
  now: () => Date;
  run?: RunProgram;
}

/** What became of a job: replaced, or why the offline summary stays. */
export type JobOutcome = { replaced: string; tokens: { prompt: number; answer?: number; input?: number } } | { kept: string; tokens?: { prompt: number } };

/** Run one job: ask, check, replace or keep; log one line; remove the job file. */
export async function runSummaryJob(job: SummaryJob, deps: WorkerDeps): Promise<JobOutcome> {
  let outcome: JobOutcome;
  try {
    outcome = await askAndReplace(job, deps);
  } catch (err) {
    outcome = { kept: err instanceof MemctxError ? err.message : String((err as Error).message ?? err) };
  }
  const { label } = headlessCommand(job.agent);
  if ('replaced' in outcome) {
    const { prompt, input, answer } = outcome.tokens;
    const used = input === undefined ? '' : `; ${label} reported ${input} input and ${answer} output tokens`;
    appendFlushLog(job.root, `${isoTimestamp(deps.now())} ${job.label} summary by ${label}: replaced the offline summary ${outcome.replaced} (prompt ${prompt} tokens${used})`);
  } else {
    logHookFailure(job.root, job.label, `summary by ${label}: ${outcome.kept}; kept the offline summary ${job.path}`, deps.now());
  }
  removeSummaryJob(job);
  return outcome;
}

/** The text of the job's session file now, when it is still the offline summary the hook wrote. */
function unchanged(job: SummaryJob): string | undefined {
  let text: string;
  try {
    text = readRegularFile(resolveMemoryPath(job.root, job.path).abs, { name: job.path }).toString('utf8');
  } catch {
    return undefined;
  }
  return createHash('sha256').update(text).digest('hex') === job.sha256 ? text : undefined;
}

async function askAndReplace(job: SummaryJob, deps: WorkerDeps): Promise<JobOutcome> {
  const offline = unchanged(job);
  if (offline === undefined) return { kept: `${job.path} changed since the hook wrote it; left as it is` };
  const encoding = isEncodingName(job.encoding) ? job.encoding : 'o200k_base';
  const counter = smallTextCounter(encoding);
  const count = (text: string) => counter.count(text);
  const transcript = readTranscript(readTranscriptText(job.transcript, job.transcript));
  const draft = readMemoryFile(job.root, job.path);
  const { prompt } = headlessPrompt(transcript, isProblem(draft) ? offline : draft.body, job, count);
  const tokens = { prompt: count(prompt) };
  const { file, args } = headlessCommand(job.agent);
  const result = await (deps.run ?? runProgram)(file, args, prompt, { timeoutMs: job.timeoutSeconds * 1000, cwd: job.cwd, env: { ...deps.env, [SUMMARY_JOB_ENV]: '1' } });
  if (result.error) return { kept: /ENOENT/.test(result.error) ? `${file} was not found on PATH` : `${file} could not be started (${result.error})`, tokens };
  if (result.timedOut) return { kept: `${file} did not answer within ${job.timeoutSeconds} s (stopped)`, tokens };
  if (result.code !== 0) return { kept: `${file} exited with code ${result.code}${firstLine(result.stderr)}`, tokens };
  const answer = readHeadlessOutput(job.agent, result.stdout);
  if ('why' in answer) return { kept: answer.why, tokens };
  const parsed = parseSummary(flushCore, answer.text);
  if ('why' in parsed) return { kept: parsed.why, tokens };
  if (unchanged(job) === undefined) return { kept: `${job.path} changed while ${file} answered; left as it is`, tokens };
  const fields = parsed.values;
  try {
    const written = await flush(
      {
        template: 'session',
        goal: fields.goal.join(' '),
        progress: fields.progress,
        decision: fields.decisions,
        changed: fields.changedFiles,
        blocker: fields.blockers,
        next: fields.nextSteps,
        sessionId: job.sessionId,
        agentSummary: true,
        writtenWith: headlessCommand(job.agent).label,
        session: sessionMeta(transcript),
        target: job.target,
        max: job.max,
        encoding,
      },
      { cwd: job.cwd, env: deps.env, home: deps.home, now: deps.now, readStdin: async () => '', root: job.root },
    );
    return { replaced: written.path, tokens: { ...tokens, input: answer.usage?.input, answer: answer.usage?.output ?? written.plan.tokens } };
  } catch (err) {
    if (err instanceof FlushRefused || err instanceof MemctxError) return { kept: `its summary was refused: ${err.message}`, tokens };
    throw err;
  }
}

function firstLine(text: string): string {
  const line = text.trim().split('\n')[0]?.slice(0, 120);
  return line ? ` (${line})` : '';
}

/** `node summary-worker.js JOB`: the job the hook saved; nothing printed (its stdio is closed). */
async function main(jobPath: string | undefined): Promise<void> {
  const job = jobPath ? readSummaryJob(jobPath) : undefined;
  if (!job) return;
  await runSummaryJob(job, { env: process.env, home: homedir(), now: () => new Date() });
}

function isMain(): boolean {
  try {
    return process.argv[1] !== undefined && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isMain()) void main(process.argv[2]).catch(() => undefined);
