/**
 * `flush --summarize-with CMD`: ask a command the user names (a local LLM CLI, say) for the six
 * session fields. It gets the compacted transcript and the schema on stdin; its answer is used only
 * when it parses into the six fields and fits the budget, else the deterministic summary stays.
 * memctx itself never goes on the network; the command is the user's choice.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Transcript } from '../../kernel/transcript/types.js';
import { compactTranscript } from '../../kernel/capacity/compact.js';
import { DEFAULT_SUMMARIZE_TIMEOUT } from '../../kernel/summary/summarizers.js';
import { detectFormat, parseFieldsText } from './input.js';

type FlushModule = typeof import('./core.js');
type PlanInput = import('../../kernel/summary/record.js').PlanInput;
type FlushPlan = import('../../kernel/summary/record.js').FlushPlan;

interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** The command could not be started. */
  error?: string;
}

export type RunCommand = (command: string, input: string, options: { timeoutMs: number; cwd: string; env: Record<string, string | undefined> }) => Promise<CommandResult>;

const MAX_OUTPUT = 1_000_000;

/** Run `command` through the shell with `input` on stdin; killed (with its children) after the timeout. */
const runCommand: RunCommand = (command, input, options) => runChild(() => spawn(command, { shell: true, cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'], detached: process.platform !== 'win32' }), input, options.timeoutMs);

/** Run the program `file` (found on the environment's PATH, no shell) with `args` and `input` on stdin; killed (with its children) after the timeout. */
export type RunProgram = (file: string, args: string[], input: string, options: { timeoutMs: number; cwd: string; env: Record<string, string | undefined> }) => Promise<CommandResult>;

export const runProgram: RunProgram = (file, args, input, options) =>
  runChild(() => spawn(file, args, { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'], detached: process.platform !== 'win32' }), input, options.timeoutMs);

/** A started child's exit code and output; its process group killed after `timeoutMs`. */
function runChild(start: () => ChildProcessWithoutNullStreams, input: string, timeoutMs: number): Promise<CommandResult> {
  return new Promise((done) => {
    const child = start();
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let settled = false;
    const finish = (result: Omit<CommandResult, 'stdout' | 'stderr' | 'timedOut'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      done({ ...result, stdout, stderr, timedOut });
    };
    const kill = () => {
      try {
        if (child.pid && process.platform !== 'win32') process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
      // settled once the killed process is gone (a second later at the latest)
      const gone = () => finish({ code: null });
      child.once('exit', gone);
      setTimeout(gone, 1000).unref();
    }, timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      if (stdout.length < MAX_OUTPUT) stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < MAX_OUTPUT) stderr += chunk.toString('utf8');
    });
    child.on('error', (err) => finish({ code: null, error: err.message }));
    child.on('close', (code) => finish({ code }));
    child.stdin.on('error', () => undefined); // a command that does not read its stdin
    child.stdin.end(input);
  });
}

/** What the command is asked: the schema, the budget, and the compacted transcript. */
async function summarizerInput(transcript: Transcript, max: number): Promise<string> {
  const { markdown } = compactTranscript(transcript, { header: ['# Transcript (compacted by memctx)'] });
  return [
    'Summarize this coding-agent session for the next session to pick up.',
    `Answer with one JSON object and nothing else, at most ${max} tokens in all, with exactly these keys,`,
    'each a string or a list of short strings (an empty list when there is nothing):',
    '  "goal": what the session set out to do',
    '  "progress": what was done',
    '  "decisions": decisions made, each with its reason',
    '  "changedFiles": files written, relative to the working directory',
    '  "blockers": what is stuck or failing at the end',
    '  "nextSteps": what to do next',
    '',
    markdown,
  ].join('\n');
}

/** The command's answer as the six fields, or why it cannot be used. */
export function parseSummary(flush: FlushModule, stdout: string): { values: Record<string, string[]> } | { why: string } {
  const text = stdout.trim();
  if (!text) return { why: 'it printed nothing' };
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  const body = start >= 0 && end > start ? text.slice(start, end + 1) : text;
  let parsed: import('./input.js').ParsedInput;
  try {
    parsed = parseFieldsText(body, detectFormat(undefined, body));
  } catch (err) {
    return { why: `its answer is not JSON or YAML (${(err as Error).message.split('\n')[0].slice(0, 120)})` };
  }
  const missing = flush.SESSION_FIELDS.filter((key) => !(key in parsed.values) && !parsed.keys.some((k) => k.normalized === key));
  if (missing.length === flush.SESSION_FIELDS.length) return { why: 'its answer has none of the six fields' };
  if (missing.length) return { why: `its answer lacks ${missing.join(', ')}` };
  const values: Record<string, string[]> = {};
  for (const key of flush.SESSION_FIELDS) values[key] = parsed.values[key] ?? [];
  if (!values.goal.length && !values.progress.length) return { why: 'its answer has neither a goal nor progress' };
  return { values };
}

/** Ask the command; a plan from its answer, or why the deterministic summary stays. */
export async function askSummarizer(
  deps: { cwd: string; env: Record<string, string | undefined>; runCommand?: RunCommand },
  flush: FlushModule,
  command: string,
  transcript: Transcript,
  input: PlanInput,
  timeoutSeconds = DEFAULT_SUMMARIZE_TIMEOUT,
): Promise<{ plan: FlushPlan } | { plan?: undefined; why: string }> {
  const run = deps.runCommand ?? runCommand;
  const max = input.max ?? 650;
  const result = await run(command, await summarizerInput(transcript, max), { timeoutMs: timeoutSeconds * 1000, cwd: deps.cwd, env: deps.env });
  if (result.error) return { why: `it could not be started (${result.error})` };
  if (result.timedOut) return { why: `it did not answer within ${timeoutSeconds} s (stopped)` };
  if (result.code !== 0) {
    const said = result.stderr.trim().split('\n')[0]?.slice(0, 120);
    return { why: `it exited with code ${result.code}${said ? ` (${said})` : ''}` };
  }
  const parsed = parseSummary(flush, result.stdout);
  if ('why' in parsed) return parsed;
  const plan = flush.planFlush({ ...input, values: parsed.values });
  if (plan.originalTokens > max) return { why: `its summary is ${plan.originalTokens} tokens, over the maximum of ${max}` };
  return { plan };
}
