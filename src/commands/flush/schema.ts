/** `flush`'s options, defaults and result shape: one definition for the CLI flags, the MCP tool and the library. */
import * as v from 'valibot';
import { MemctxError } from '../../kernel/errors.js';
import { DEFAULT_MAX, DEFAULT_TARGET } from '../../kernel/summary/limits.js';
import { DEFAULT_ENCODING, ENCODINGS, type EncodingName } from '../../kernel/tokens/encodings.js';
import { parseTokenOption } from '../../kernel/tokens/size.js';
import { isSummaryAgent, SUMMARY_AGENTS } from '../../kernel/summary/summarizers.js';
import { ARG_LABEL, choice, flag, parseInput, text, texts, tokenSize, whole, type Label } from '../../kernel/schema.js';

export const FlushOptions = v.strictObject({
  template: v.optional(text('session, decision, notes, or templates/NAME.md in the memory directory (default session)')),
  from: v.optional(text('read fields from a JSON or YAML file (- for stdin)')),
  goal: v.optional(text('what this session set out to do')),
  progress: v.optional(texts('what was done')),
  decision: v.optional(texts('decisions made, each with its reason')),
  changed: v.optional(texts('files changed (repository paths)')),
  blocker: v.optional(texts('what is stuck or unresolved')),
  next: v.optional(texts('what to do next')),
  field: v.optional(texts('any template field as key=value')),
  transcript: v.optional(text('take marked lines and written files from this transcript')),
  git: v.optional(flag('add the changed files from git status')),
  since: v.optional(text('with git: also the files changed since this revision')),
  session_id: v.optional(text("this session's id, when the request to save the summary gave one (one file per session)")),
  target: v.optional(tokenSize(`token target the shortening aims for (default ${DEFAULT_TARGET})`)),
  max: v.optional(tokenSize(`over this many tokens the summary is shortened to the target (default ${DEFAULT_MAX})`)),
  strict: v.optional(flag('refuse instead of shortening')),
  encoding: v.optional(choice(ENCODINGS, `tokenizer (default ${DEFAULT_ENCODING})`)),
  dry_run: v.optional(flag('return the file without writing it')),
  agent_summary: v.optional(flag("the agent's own summary: all six fields required, refused over max")),
  hook: v.optional(flag("read a Claude Code hook's JSON on stdin; never fails")),
  summarize_with: v.optional(text(`ask this command for the six fields (with hook: ${SUMMARY_AGENTS.join(' or ')}, asked in the background after the offline summary is written)`)),
  summarize_timeout: v.optional(whole('with summarize_with: seconds to wait for the command (default 60)', 1)),
});
export type FlushOptions = v.InferInput<typeof FlushOptions>;

/** What the MCP `flush` tool takes: the agent's own summary (the fields under the names the model reads), nothing read from disk. */
export const FlushInput = v.strictObject({
  goal: FlushOptions.entries.goal,
  progress: FlushOptions.entries.progress,
  decisions: FlushOptions.entries.decision,
  changed_files: FlushOptions.entries.changed,
  blockers: FlushOptions.entries.blocker,
  next_steps: FlushOptions.entries.next,
  session_id: FlushOptions.entries.session_id,
  dry_run: FlushOptions.entries.dry_run,
});

/** A flush's options checked, with their defaults: what actions/flush.ts takes. */
export interface FlushRequest {
  template: string;
  from?: string;
  goal?: string;
  progress?: string[];
  decision?: string[];
  changed?: string[];
  blocker?: string[];
  next?: string[];
  field?: string[];
  transcript?: string;
  git?: boolean;
  since?: string;
  sessionId?: string;
  target: number;
  max: number;
  strict?: boolean;
  encoding: EncodingName;
  dryRun?: boolean;
  hook?: boolean;
  summarizeWith?: string;
  /** Seconds the summarize_with command may take. */
  summarizeTimeout?: number;
  /** The agent's own summary: all six fields required, refused over max. */
  agentSummary?: boolean;
  /** Not an option: the headless agent that wrote this agent summary (`written_with` in the frontmatter). */
  writtenWith?: string;
  /** Not an option: what the transcript says of the session, when no transcript is read (the background summary). */
  session?: import('../../kernel/summary/record.js').SessionMeta;
}

/** Check a flush input and settle its defaults: the token target and maximum, the template, the encoding. */
export function resolveFlush(input: unknown, label: Label = ARG_LABEL): FlushRequest {
  const given = parseInput(FlushOptions, input, label);
  const tokens = (key: 'target' | 'max', fallback: number) => (given[key] === undefined ? fallback : parseTokenOption(String(given[key]), label(key)));
  const target = tokens('target', DEFAULT_TARGET);
  const max = tokens('max', DEFAULT_MAX);
  if (target > max) throw new MemctxError(`${label('target')} (${target}) must not be over ${label('max')} (${max})`, { hint: 'the summary is shortened to the target once it is over the maximum' });
  if (given.hook && given.summarize_with !== undefined && !isSummaryAgent(given.summarize_with)) {
    throw new MemctxError(`with ${label('hook')}, ${label('summarize_with')} takes ${SUMMARY_AGENTS.join(' or ')} (the agent's headless mode, in the background), not "${given.summarize_with}"`, {
      hint: `a command of your own runs only without ${label('hook')}`,
    });
  }
  const { template, session_id, dry_run, agent_summary, summarize_with, summarize_timeout, encoding, ...rest } = given;
  return {
    ...rest,
    template: template ?? 'session',
    sessionId: session_id,
    target,
    max,
    encoding: encoding ?? DEFAULT_ENCODING,
    dryRun: dry_run,
    agentSummary: agent_summary,
    summarizeWith: summarize_with,
    summarizeTimeout: summarize_timeout,
  };
}

export const FlushOutput = v.object({
  path: v.string(),
  written: v.boolean(),
  replaced: v.boolean(),
  text: v.string(),
  warnings: v.array(v.string()),
  notes: v.array(v.string()),
});
