/**
 * Background summaries (`flush --hook --summarize-with AGENT`): the job the SessionEnd hook hands to
 * its detached worker, kept in the state folder as `summary-job-<session>.json` (never the work tree).
 * While a job's file is there and younger than its time limit, no second job starts for the session.
 */
import { join } from 'node:path';
import { readStateJson, stateDir } from './folder.js';
import { writeStateFile } from '../store/write.js';
import { isRecord } from '../values.js';
import { isSummaryAgent, type SummaryAgent } from '../summary/summarizers.js';
const { rmSync } = process.getBuiltinModule('node:fs');

export interface SummaryJob {
  agent: SummaryAgent;
  /** The memory directory and the session's working directory, absolute. */
  root: string;
  cwd: string;
  /** The transcript, absolute. */
  transcript: string;
  sessionId: string;
  /** The offline summary the hook wrote (inside the memory directory) and a hash of its text: replaced only while it is unchanged. */
  path: string;
  sha256: string;
  target: number;
  max: number;
  encoding: string;
  timeoutSeconds: number;
  /** The hook's label in the flush log (`SessionEnd(exit) session=…`). */
  label: string;
  /** When the hook started the job (ISO). */
  started: string;
}

/** A session id as part of a file name: letters, digits, `-` and `_` only. */
function jobName(sessionId: string): string {
  return `summary-job-${sessionId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 100)}.json`;
}

/** Save the job in the state folder; its absolute path, or undefined when there is no state folder. */
export async function saveSummaryJob(job: SummaryJob): Promise<string | undefined> {
  const dir = stateDir(job.root, { always: true });
  if (!dir) return undefined;
  await writeStateFile(dir, jobName(job.sessionId), `${JSON.stringify(job)}\n`);
  return join(dir, jobName(job.sessionId));
}

/** The job of this session that is still within its time (plus a grace minute), if any. */
export function runningSummaryJob(root: string, sessionId: string, now: Date): SummaryJob | undefined {
  const job = checkJob(readStateJson(stateDir(root), jobName(sessionId)));
  if (!job) return undefined;
  const age = now.getTime() - Date.parse(job.started);
  return age >= 0 && age < (job.timeoutSeconds + 60) * 1000 ? job : undefined;
}

/** Read a job file the hook wrote (no link followed); undefined when it is missing or not a job. */
export function readSummaryJob(path: string): SummaryJob | undefined {
  const at = path.lastIndexOf('/');
  return checkJob(readStateJson(path.slice(0, at), path.slice(at + 1)));
}

/** Remove the job's file (the worker is done with it). */
export function removeSummaryJob(job: SummaryJob): void {
  const dir = stateDir(job.root);
  if (dir) rmSync(join(dir, jobName(job.sessionId)), { force: true });
}

const STRINGS = ['root', 'cwd', 'transcript', 'sessionId', 'path', 'sha256', 'encoding', 'label', 'started'] as const;
const NUMBERS = ['target', 'max', 'timeoutSeconds'] as const;

function checkJob(value: unknown): SummaryJob | undefined {
  if (!isRecord(value) || !isSummaryAgent(value.agent)) return undefined;
  if (!STRINGS.every((key) => typeof value[key] === 'string') || !NUMBERS.every((key) => typeof value[key] === 'number' && value[key] > 0)) return undefined;
  return value as unknown as SummaryJob;
}
