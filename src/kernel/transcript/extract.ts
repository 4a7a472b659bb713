/**
 * What a session did, read from what the agent itself recorded (design §7): the first real user
 * request, its compaction summaries, its task list, its commits and pushes, decision statements,
 * errors never followed by a success, and the files its tools and commands changed. A compaction
 * summary describes the moment of compaction; what happened after it wins. Each format supplies a
 * profile (how its requests and task lists look); the reading is the same for all. Pure: no disk,
 * no clock.
 */
import { isAbsolute, posix, relative, resolve } from 'node:path';
import { changedFiles } from './files.js';
import { commandKey, commitMessage, failureExpected, gitOutcomes, isTestRun, lastProgramText, onlyLooks, shellCommand, type GitOutcome } from './commands.js';
import { sectionItems, sectionLead, summaryDecisions, summarySections, type SectionName } from './compaction.js';
import { addDistinct, condense, proseLines, wholeStatement } from './statement.js';
import { TaskLog, type TaskEvent } from './tasks.js';
import type { Transcript, TranscriptItem } from './types.js';

export { condense } from './statement.js';
export { summarySections, sectionItems } from './compaction.js';

export interface ExtractProfile {
  /** The user's request in a user message, or undefined when the message is not one (a preamble, a reminder). */
  request(text: string): string | undefined;
  /** How a tool call changes the task list (TodoWrite, update_plan, TaskCreate…), or undefined. */
  tasks(call: TranscriptItem): TaskEvent | undefined;
}

export interface FactFile {
  /** Relative to the session's working directory, or absolute when outside it. */
  path: string;
  /** Absolute, when the working directory (or the path itself) says where it is. */
  abs?: string;
  outside?: boolean;
  /** The path it was moved from during the session (as shown). */
  from?: string;
  /** Removed during the session. */
  deleted?: boolean;
  /** Moved out of the project during the session, to this path. */
  movedTo?: string;
}

export interface SessionFacts {
  goal: string[];
  progress: string[];
  decisions: string[];
  blockers: string[];
  nextSteps: string[];
  changedFiles: FactFile[];
  /** Set when nothing in the transcript could be read (every message redacted): why. */
  unreadable?: string;
}

const MAX_DECISIONS = 3;
const MAX_SUMMARY_DECISIONS = 3;
/** Decisions in all: each is a long line, and Decisions is the field shortening cuts last. */
const MAX_ALL_DECISIONS = 4;
const MAX_BLOCKERS = 3;
const MAX_COMPLETED = 8;
/** Progress in all: the end state first, so a long session's older tasks are what is left out. */
const MAX_PROGRESS = 9;
const MAX_COMMITS = 3;

// ---- requests ----

const PREAMBLE = /^(?:<[a-z_-]+[\s>]|# AGENTS\.md instructions|caveat:|\[Request interrupted|This session is being continued from a previous conversation)/i;
/** Replies that ask for nothing by themselves ("yes", "3", "go ahead"). */
const ACKNOWLEDGEMENT = /^(?:y|yes|yep|yeah|no|nope|ok|okay|sure|go|go ahead|continue|proceed|do it|please do|thanks?|thank you|lgtm|done|\d{1,2})[.!]*$/i;
/** Text that only stands for text that was removed. */
const REDACTED = /^(?:\s*(?:\[redacted[^\]]*\]|<redacted[^>]*>|redacted|█+|\*{3,}|\[[a-z_ ]*removed\])\s*)+$/i;

/** A sentence that asks for something: a question, an imperative, "please", "can you", "I want". */
const ASK = /^(?:please\b|(?:can|could|would|will) (?:you|we)\b|(?:I|we) (?:want|need|would like)\b|I'd like\b|let's\b|help me\b|(?:add|fix|refactor|review|update|implement|make|create|write|remove|delete|rename|move|open|set up|run|check|investigate|find|debug|change|build|migrate|convert|explain|list|improve|clean|bump|upgrade|port|split|merge|document|use|switch|replace|look|figure|try|show|tell|summari[sz]e|analy[sz]e|resolve|address|continue|finish|commit|push|submit|deploy|rewrite|support|handle|ensure|verify)\b)/i;

/** The sentence of a request's first lines that asks (a question or an imperative), else its first line. */
function askOf(lines: string[], first: string): string {
  if (first.endsWith('?') || ASK.test(first)) return first;
  const head = lines.slice(0, 6).join(' ').replace(/\s+/g, ' ');
  const ask = head.split(/(?<=[.!?])\s+(?=[A-Z`*"'])/).find((s) => s.length >= 12 && (s.endsWith('?') || ASK.test(s.replace(/^[\s*#>-]+/, ''))));
  return ask ?? first;
}

/** A user message's request: the sentence of its first lines that asks (else its first line, with the next when the first only announces it), or undefined for preambles. */
export function plainRequest(text: string): string | undefined {
  const trimmed = text.trim();
  if (!trimmed || PREAMBLE.test(trimmed) || ACKNOWLEDGEMENT.test(trimmed) || REDACTED.test(trimmed)) return undefined;
  const lines = trimmed.split('\n').map((l) => l.trim()).filter(Boolean);
  let first = lines[0];
  if (first.endsWith(':') && lines[1]) first = `${first} ${lines[1].replace(/^#+\s*/, '')}`;
  return condense(askOf(lines, condense(first, 300)), 300);
}

/** Messages the agent's runtime injects when a background task ends; the replies to them are not the session's work. */
const NOTIFICATION = /^\s*(?:<(?:task-notification|bash-notification|background-task[\w-]*|agent-notification)\b|Background (?:task|command|shell|bash)\b[^\n]*(?:completed|finished|exited|failed))/i;

// ---- decisions ----

/** How many texts a cue screens by its words. */
const MAX_SCREENED = 64;

/**
 * A case-insensitive cue pattern with the lower-case words every match contains: texts without any
 * of them (most) are answered without running the pattern, which V8 would first interpret and then
 * compile (about 1 ms for DONE, even on a short message). The words must be ASCII and spelled as
 * in the pattern; a test runs both on random text.
 */
export class Cue {
  private calls = 0;

  /**
   * `quick`: a small part of the pattern, tried first (any text it matches, the pattern matches);
   * `screened`: how many texts are screened by the words before the pattern runs on every text (a
   * long session asks often, and there the compiled pattern is faster than lower-casing each text).
   */
  constructor(readonly pattern: RegExp, readonly words: readonly string[], readonly quick?: RegExp, readonly screened = MAX_SCREENED) {}

  test(text: string): boolean {
    if (++this.calls > this.screened) return this.pattern.test(text);
    const lower = text.toLowerCase();
    return this.words.some((word) => lower.includes(word)) && (this.quick?.test(text) || this.pattern.test(text));
  }
}

const STRONG_CUE = new Cue(/\b(?:decided|decide to|chose|choose to|went with|go with|opted|instead of|rather than|trade-?offs?)\b/i, ['decide', 'chose', 'choose to', 'went with', 'go with', 'opted', 'instead of', 'rather than', 'trade']);
/** An action taken for a stated purpose ("add a mutex to protect the cache"). */
const PURPOSE_CUE = new Cue(/\b(?:add(?:ed|s)?|use[sd]?|using|switch(?:ed)?|replac(?:e|ed|ing)|mov(?:e|ed)|keep|kept|inlin(?:e|ed)|remov(?:e|ed)|fall(?:s)? back|wrap(?:ped)?|guard(?:ed)?|scop(?:e|ed))\b(?:[^.]|\.(?=\S)){3,80}\b(?:to (?:protect|avoid|prevent|keep|match|ensure|support|handle|make sure)|so that|so (?:we|it|the)|which (?:avoids|prevents|keeps))\b/i, ['to protect', 'to avoid', 'to prevent', 'to keep', 'to match', 'to ensure', 'to support', 'to handle', 'to make sure', 'so that', 'so we', 'so it', 'so the', 'which avoids', 'which prevents', 'which keeps']);
const WEAK_CUE = new Cue(/\b(?:because|since)\b/i, ['because', 'since']);
/** The agent's own action, stated ("I reject an empty password …", "We kept …"), not a diagnosis. */
const OWN_ACTION = /^(?:I|We)\s+(?!(?:think|believe|see|saw|need|can|could|was|were|am|have|had|found|noticed|suspect|guess|don't|do not|did not|didn't)\b)\w+/;
/** A why in a statement: a reason, a purpose, or the alternative it was chosen over. */
const WHY = /\b(?:because|since|so that|so (?:it|we|the|a|existing|that)|to (?:avoid|prevent|keep|ensure|match|support|protect|handle)|instead of|rather than|otherwise|which (?:avoids|prevents|keeps|means)|per (?:the )?user)\b/i;
/** Reactions and plans that read like decisions but state none ("Good, gofmt …", "X needs to be updated"). */
const NOT_DECIDED = /^(?:Good|Great|Perfect|Nice|OK|Okay|Excellent)\b|\bneeds? to be (?:updated|changed|fixed|moved)\b/i;
/** Labels of the problem a labelled fix answers (`**Issue:** …` before `**Fix:** …`). */
const ISSUE_LABEL = /^\s*(?:[-*+]\s+)?\*\*(?:Issue|Problem|Root cause|Bug|Why):?\*\*:?\s*(\S.{10,})$/i;

/** A sentence, or its first clauses (to a comma) when it is longer than `max`; undefined when even the first is. */
function firstClause(sentence: string, max: number): string | undefined {
  if (sentence.length <= max) return sentence;
  const cut = sentence.lastIndexOf(', ', max);
  return cut >= 20 ? sentence.slice(0, cut) : undefined;
}

/** Statements with a why first (stable): when there is room for only some, those are kept. */
function whyFirst(items: string[]): string[] {
  return [...items.filter((s) => WHY.test(s)), ...items.filter((s) => !WHY.test(s))];
}
/** Narration of what the agent is about to do or is doing: never a decision. */
const NARRATION = /^(?:(?:But |And |So )?I (?:found|noticed|see|saw)\b|I'm|I am|Let me|Let's|Now(?:,)? (?:I|let)|Next(?:,)? (?:I|let)|First(?:,)? (?:I|let)|Then(?:,)? I|I(?:'ll| will) (?:now|first|start|begin|check|look|read|run|pull|open|take)|Going to|Time to|I need to|Looking|Checking|Reading)\b/i;

const PLAN_WORD = /\b(?:I'll|I will|we'll|we will|let's|use|using|keep|switch(?:ed)?|prefer)\b/i;
/** A marked line (`DECISION:`, `BLOCKER:`, `Next steps:` …) is read as such by flush, not as a cue statement. */
const MARKED = /(?:^|[\s(.;,*])(?:DECISIONS?|BLOCKERS?|TODO|GOAL|DONE|PROGRESS|NEXT[ -]STEPS?|Next steps)\**:/;

/** Decision statements in an agent's text; `closing`: the final message, where any stated why counts. */
function decisionSentences(text: string, closing = false): string[] {
  const out: string[] = [];
  const push = (s: string) => {
    const whole = wholeStatement(s);
    if (whole && !NARRATION.test(whole) && !NOT_DECIDED.test(whole)) out.push(whole);
  };
  let issue: string | undefined;
  for (const raw of proseLines(text)) {
    if (MARKED.test(raw)) continue;
    const problem = ISSUE_LABEL.exec(raw);
    if (problem) issue = firstClause(problem[1].replace(/\*\*/g, '').split(/(?<=[.!?])\s/)[0].replace(/[.!]$/, ''), 140);
    // "**Fix:** added symlink detection …": what was chosen, under a label that says so (with the issue it answers as its why)
    const labelled = /^\s*(?:[-*+]\s+)?\*\*(?:Fix|Solution|Approach|Resolution):?\*\*:?\s*(\S.{20,})$/i.exec(raw);
    if (labelled) {
      const fix = labelled[1].replace(/\*\*/g, '').trim().replace(/[.!:]+$/, '');
      push(issue && !WHY.test(fix) ? `${fix}, because ${issue.charAt(0).toLowerCase()}${issue.slice(1)}.` : fix);
      issue = undefined;
      continue;
    }
    for (const sentence of raw.split(/(?<=[.!?])\s+(?=[A-Z`*])/)) {
      const s = sentence.replace(/^\s*(?:[-*+]|\d+[.)]|#+)\s*/, '').replace(/\*\*/g, '').replace(/^[*_]+/, '').trim();
      if (s.length < 25 || s.endsWith('?')) continue;
      const weak = WEAK_CUE.test(s) && (PLAN_WORD.test(s) || OWN_ACTION.test(s));
      if (STRONG_CUE.test(s) || PURPOSE_CUE.test(s) || weak || (closing && WHY.test(s))) push(s);
    }
  }
  return out;
}

// ---- blockers ----

/** Tools whose failure can leave work undone: commands and writes (a failed read or search is only a look). */
const CONSEQUENTIAL = /^(?:bash|shell|shell_command|exec_command|local_shell|run_shell_command|terminal|execute_command|apply_patch|write|edit|multiedit|notebookedit|write_file|replace|create_file|str_replace_editor)$/i;
const ERROR_LINE = /\b(?:error|errors|failed|failure|fail|exception|panic|fatal|cannot|can't|not found|denied|refused|timed out|traceback)\b|\b\w+(?:Error|Exception)\b/i;
/** Lines a tool wraps its output in (Codex: `Chunk ID:`, `Wall time:`, `Process exited with code 1`, `Output:`). */
const OUTPUT_HEADER = /^(?:chunk id|wall time|exit code|process exited with code|original token count|output|total output lines)\b:?|^npm (?:error|ERR!) (?:code|errno|syscall|path)\b/i;
const REJECTED = /user doesn't want to proceed|was rejected|user rejected|interrupted by user|Sibling tool call errored/i;

/** What a later success must match to settle a failure: the command's program (and subcommand), or the tool and its file. */
function callKey(call: TranscriptItem): string {
  const command = shellCommand(call);
  if (command !== undefined) return `shell:${commandKey(command)}`;
  return `${call.toolName ?? 'tool'}:${callTarget(call) ?? ''}`;
}

function callTarget(call: TranscriptItem): string | undefined {
  const input = call.toolInput && typeof call.toolInput === 'object' ? (call.toolInput as Record<string, unknown>) : {};
  return ['file_path', 'path', 'notebook_path', 'url', 'pattern'].map((k) => input[k]).find((v): v is string => typeof v === 'string');
}

/** How a failed call is named in Blockers: its last command, or the tool and its file. */
function callLabel(call: TranscriptItem, cwd: string | undefined): string {
  const command = shellCommand(call);
  if (command !== undefined) return condense(lastProgramText(command) ?? command, 80);
  const target = callTarget(call);
  const name = call.toolName ?? 'tool';
  return target === undefined ? name : `${name} ${showFile(target, cwd)?.path ?? target}`;
}

const TEST_NAMES = [/(?:^|\s)--- FAIL: (\S+)/gm, /^FAILED (\S+)/gm, /^\s*(?:×|✕|✗)\s+(.+?)(?:\s+\d+\s*ms)?$/gm, /^test (\S+) \.\.\. FAILED$/gm];

/** Names of failing tests in a test run's output (Go, pytest, Jest/Vitest, cargo). */
export function failingTests(output: string): string[] {
  const names = new Set<string>();
  for (const pattern of TEST_NAMES) for (const m of output.matchAll(pattern)) names.add(m[1].trim());
  return [...names];
}

/** The line of a failed command's output that says why: an error line, not the tool's own headers. */
function errorLine(text: string): string {
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l && !OUTPUT_HEADER.test(l));
  const line = lines.find((l) => ERROR_LINE.test(l)) ?? lines[0] ?? text.trim().split('\n')[0] ?? '';
  return condense(line.replace(/<\/?tool_use_error>/g, ''), 160);
}

/**
 * Failures still standing at the end: a later success of the same step (the same program and
 * subcommand, any test runner for a test run) settles one, and so does a later commit or push (the
 * work went on past it); probes and commands whose failure was expected are never blockers.
 */
function blockersOf(items: TranscriptItem[], cwd: string | undefined): string[] {
  const calls = new Map<string, TranscriptItem>();
  const open = new Map<string, string>();
  for (const item of items) {
    if (item.kind === 'tool_call' && item.toolId) calls.set(item.toolId, item);
    if (item.kind !== 'tool_result' || !item.toolId) continue;
    const call = calls.get(item.toolId);
    if (!call || !CONSEQUENTIAL.test(call.toolName ?? '')) continue;
    const failed = item.isError === true;
    if (!failed && open.size === 0) continue;
    const command = shellCommand(call);
    if (command !== undefined && (onlyLooks(command) || failureExpected(command))) continue;
    const key = callKey(call);
    if (!failed) {
      if (command !== undefined && gitOutcomes(command, item.text).some((o) => o.kind !== 'pr')) open.clear();
      open.delete(key);
      continue;
    }
    if (REJECTED.test(item.text)) continue;
    const label = callLabel(call, cwd);
    const tests = failingTests(item.text);
    open.delete(key);
    open.set(key, tests.length ? `\`${label}\` fails: ${tests.slice(0, 5).join(', ')}${tests.length > 5 ? ` and ${tests.length - 5} more` : ''}` : `\`${label}\` failed: ${errorLine(item.text)}`);
  }
  return [...open.values()].slice(-MAX_BLOCKERS);
}

// ---- the end of the session ----

/** A final message that says the work is done. */
const DONE = new Cue(/(?:^|[.!]\s+)(?:done\b|all (?:\w+ ){0,4}(?:are |is |have been )?(?:complete|completed|done|finished|addressed|resolved|implemented|fixed|passing|pass)\b|(?:\w+ ){0,6}(?:is|are) (?:now )?(?:complete|done|finished)\b)|\bready to (?:be )?(?:commit|merge|review|ship)|\bno (?:further|more) (?:action|work|changes)\b/im, ['done', 'complete', 'finished', 'addressed', 'resolved', 'implemented', 'fixed', 'pass', 'ready to', 'no further', 'no more'], /(?:^|[.!]\s+)done\b/im);
/** Sentences of a final message that state what is left. */
/** A final sentence that tells the user what to do to get past a failure ("Install python3-venv, then …"). */
const USER_ACTION = /^(?:Install|Run|Set up|Enable|Configure|Grant|Restart|Re-?run|Add|Upgrade|Log in|Export)\b/;
const NEXT_CUE = new Cue(/\b(?:ready to be (?:committed|merged|reviewed|pushed)|ready for (?:review|merge|commit)|(?:still|yet) (?:needs?|to be)|remaining (?:work|steps?|tasks?)|left to do|follow-?up\b|next step|you (?:can|could|may|might) (?:now |then )?(?:run|commit|merge|push|review|test|try|deploy))/i, ['ready to be', 'ready for', 'still ', 'yet ', 'remaining ', 'left to do', 'follow', 'next step', 'you ']);

/** The cue patterns, for the test that runs each with and without its words. */
export const CUES = { STRONG_CUE, PURPOSE_CUE, WEAK_CUE, DONE, NEXT_CUE };

/** Sentences outside code blocks. */
function sentences(text: string): string[] {
  const out: string[] = [];
  for (const line of proseLines(text)) {
    out.push(...line.split(/(?<=[.!?])\s+(?=[A-Z`*])/).map((s) => s.replace(/^\s*(?:[-*+]|\d+[.)]|#+)\s*/, '').replace(/\*\*/g, '').trim()).filter(Boolean));
  }
  return out;
}

/** An opening that says only that things went well; the paragraph after it says what was done. */
const BARE_OPENING = /^(?:done|all (?:tests|checks) pass\w*|tests pass\w*|perfect|great|good|excellent|everything (?:passes|works))\b[^\n]{0,60}$/i;

/** The opening statement of a final message, unless it is code or a marked line (those are read as such). */
function openingStatement(text: string): string | undefined {
  const paras = text.split(/\n\s*\n/).map((p) => p.trim()).filter((p) => p && !p.startsWith('```') && !MARKED.test(p.split('\n')[0]));
  if (!paras.length) return undefined;
  const first = condense(paras[0]);
  return BARE_OPENING.test(first) && paras[1] ? condense(`${first.replace(/[.!:]*$/, ':')} ${paras[1].split('\n')[0]}`, 240) : first;
}

/** The question a final message ends on, when it asks the user something. */
function closingQuestion(text: string): string | undefined {
  const last = sentences(text).pop();
  return last && last.endsWith('?') && last.length >= 12 ? condense(last, 200) : undefined;
}

// ---- files ----

/** Agents' own folders: a plan or memory file there is not the project's work. */
const AGENT_HOME = /(?:^~|\/(?:home\/[^/]+|Users\/[^/]+|root))\/\.(?:claude|codex|gemini|cursor)\//;

/** Temporary folders: scratch files there are not the session's work. */
const TEMP = /^(?:\/tmp\/|\/var\/tmp\/|\/private\/(?:var\/)?tmp\/|\/var\/folders\/|\/dev\/shm\/)/;

function showFile(path: string, cwd: string | undefined, keepTemp = false): FactFile | undefined {
  const posixPath = path.replace(/\\/g, '/');
  if (/(?:^|\/)\.git\//.test(posixPath)) return undefined;
  if (AGENT_HOME.test(posixPath) || posixPath.startsWith('~/')) return AGENT_HOME.test(posixPath) ? undefined : { path: posixPath, outside: true };
  if (!cwd) return isAbsolute(posixPath) ? { path: posixPath, abs: posixPath } : { path: posixPath };
  const abs = resolve(cwd, posixPath);
  const rel = relative(cwd, abs);
  if (rel && !rel.startsWith('..') && !isAbsolute(rel)) return { path: rel.split('\\').join('/'), abs };
  // outside the project: listed apart, unless it is temporary scratch
  return !keepTemp && TEMP.test(abs.replace(/\\/g, '/')) ? undefined : { path: abs, abs, outside: true };
}

// ---- the whole ----

interface Request {
  text: string;
  index: number;
  /** Tool calls that changed something (edits, commands that are not only looks) while it was the latest request. */
  work: number;
}

interface Timeline {
  request?: string;
  /** Every user request, in order, with the work done for it. */
  requests: Request[];
  /** Every compaction summary, in order. */
  summaries: { text: string; index: number }[];
  tasks: TaskLog;
  /** The last assistant message that was not a reply to a background-task notification. */
  final?: { text: string; index: number };
  outcomes: (GitOutcome & { index: number })[];
  /** Decision statements in commit messages the session wrote (their "what + why" lines). */
  commitDecisions: { text: string; index: number }[];
  /** Test runs (any runner) and whether they passed. */
  testRuns: { index: number; passed: boolean; label: string }[];
  /** The index of the last tool call that edited a file. */
  lastEdit: number;
  /** The index of the last tool call that was not a task list change. */
  lastCall: number;
  /** The index of the last tool call of any kind. */
  lastAnyCall: number;
  /** Whether any message had readable text. */
  readable: boolean;
  messages: number;
}

/** A request that only carries on with an earlier one. */
const CONTINUATION = /^(?:continue|resume|keep going|go on|carry on|proceed|pick up)\b/i;

const EDIT_TOOL = /^(?:write|edit|multiedit|notebookedit|apply_patch|write_file|replace|create_file|str_replace_editor|str_replace_based_edit_tool)$/i;

/** One tool call's share of the timeline: the work it counts for, the task list. */
function readCall(tl: Timeline, item: TranscriptItem, index: number, profile: ExtractProfile): void {
  tl.lastAnyCall = index;
  const event = profile.tasks(item);
  if (event) tl.tasks.apply(event, index);
  else tl.lastCall = index;
  const command = shellCommand(item);
  const edits = EDIT_TOOL.test(item.toolName ?? '');
  if (edits) tl.lastEdit = index;
  const request = tl.requests[tl.requests.length - 1];
  if (request && (edits || (command !== undefined && !onlyLooks(command)))) request.work++;
}

/** One successful tool result's share: commits, pushes, pull requests, commit messages' decisions; test runs. */
function readResult(tl: Timeline, item: TranscriptItem, index: number, call: TranscriptItem | undefined): void {
  const command = call ? shellCommand(call) : undefined;
  if (command === undefined) return;
  if (isTestRun(command)) tl.testRuns.push({ index, passed: !item.isError, label: condense(lastProgramText(command) ?? command, 60) });
  if (item.isError) return;
  for (const o of gitOutcomes(command, item.text)) tl.outcomes.push({ ...o, index });
  const message = commitMessage(command);
  if (message) for (const text of decisionSentences(message)) tl.commitDecisions.push({ text, index });
}

/** A user message's share: a compaction summary, a notification, or a request (a continuation joins the one before). */
function readUserMessage(tl: Timeline, item: TranscriptItem, index: number, profile: ExtractProfile, walk: { notified: boolean }): void {
  if (item.compactSummary) tl.summaries.push({ text: item.text, index });
  else if (NOTIFICATION.test(item.text)) walk.notified = true;
  else if (!item.meta) {
    walk.notified = false;
    const request = profile.request(item.text);
    if (tl.request === undefined) tl.request = request;
    // "continue with the printer": the earlier request's work goes on
    if (request !== undefined && !(CONTINUATION.test(request) && tl.requests.length)) tl.requests.push({ text: request, index, work: 0 });
  }
}

/** Whether a message counts as read: not redacted, and not the agent's preamble sent as the user. */
function readableMessage(item: TranscriptItem): boolean {
  return !REDACTED.test(item.text) && !(item.role === 'user' && PREAMBLE.test(item.text.trim()));
}

function readTimeline(main: TranscriptItem[], profile: ExtractProfile): Timeline {
  const tl: Timeline = { requests: [], summaries: [], tasks: new TaskLog(), outcomes: [], commitDecisions: [], testRuns: [], lastEdit: -1, lastCall: -1, lastAnyCall: -1, readable: false, messages: 0 };
  const calls = new Map<string, TranscriptItem>();
  const walk = { notified: false };
  main.forEach((item, index) => {
    const message = item.kind === 'message' && (item.role === 'user' || item.role === 'assistant');
    if (message) {
      tl.messages++;
      if (readableMessage(item)) tl.readable = true;
    }
    if (message && item.role === 'user') readUserMessage(tl, item, index, profile, walk);
    else if (message) {
      if (!walk.notified && !/^\s*no response requested\.?\s*$/i.test(item.text) && !REDACTED.test(item.text)) tl.final = { text: item.text, index };
    } else if (item.kind === 'tool_call') {
      walk.notified = false;
      if (item.toolId) calls.set(item.toolId, item);
      readCall(tl, item, index, profile);
    } else if (item.kind === 'tool_result' && item.toolId) {
      readResult(tl, item, index, calls.get(item.toolId));
    }
  });
  return tl;
}

const NOTHING = /^(?:none|no pending|nothing|n\/a)\b/i;
const SUMMARY_DONE = /\b(?:is|are|appears|was) (?:fully )?(?:complete|done|finished)\b|no (?:further|explicit) (?:action|next steps?|tasks?)|all requested (?:work|items)/i;

/** The requests the session's work answered: the one with the most work, and the last one with work when it is another. */
function goalOf(tl: Timeline): string[] {
  const worked = tl.requests.filter((r) => r.work > 0);
  if (!worked.length) return tl.request ? [tl.request] : [];
  const main = worked.reduce((a, b) => (b.work > a.work ? b : a));
  const last = worked[worked.length - 1];
  return last === main ? [main.text] : [main.text, `Then: ${last.text}`];
}

/** The session's final state in one line: the last commit, push, pull request, and the tests when they passed after the last edit. */
function endState(tl: Timeline): string | undefined {
  const parts: string[] = [];
  const last = (kind: GitOutcome['kind']) => tl.outcomes.filter((o) => o.kind === kind).pop();
  const commit = last('commit');
  const push = last('push');
  const pr = last('pr');
  if (commit) parts.push(`committed ${/^Committed (\S+?):/.exec(commit.text)?.[1] ?? ''}`.trim() + (tl.lastEdit > commit.index ? ' (files edited after it are not committed)' : ''));
  if (push) parts.push(push.text.replace(/^Pushed/, 'pushed'));
  if (pr) parts.push(pr.text.replace(/^Opened/, 'opened'));
  const test = tl.testRuns[tl.testRuns.length - 1];
  if (test?.passed && test.index > tl.lastEdit) parts.push(`tests passing (\`${test.label}\`)`);
  return parts.length ? `End state: ${parts.join(', ')}.` : undefined;
}

/** Where the session stopped: mid-turn (tool calls after the agent's last words), or on a request the agent never answered. */
function unfinished(tl: Timeline, main: TranscriptItem[], since: number): string | undefined {
  const request = tl.requests[tl.requests.length - 1];
  // a request before the last compaction summary: the summary says where it stood
  if (request && request.index < since) return undefined;
  const finalAt = tl.final?.index ?? -1;
  // a greeting or a one-word message left unanswered is not open work
  if (request && request.index > finalAt && (request.text.length >= 12 || request.text.endsWith('?'))) {
    if (request.index > tl.lastAnyCall) return `Answer the user's request: ${request.text}`;
    if (request.index < tl.lastCall) return `Finish the request the session stopped in: ${request.text}`;
    return undefined;
  }
  const last = main[main.length - 1];
  const midTurn = tl.lastCall > finalAt || (last !== undefined && last.kind === 'message' && last.role === 'user' && !last.meta && !last.compactSummary);
  return midTurn && request ? `Finish the request the session stopped in: ${request.text}` : undefined;
}

/** A summary's current work that says it had finished. */
const FINISHED = /\b(?:had (?:just )?(?:finished|completed)|(?:just )?(?:finished|completed) (?:updating|adding|fixing|writing|implementing))\b/i;
const MAX_TURN_RESULTS = 2;

/** The opening statement of each earlier turn's last assistant message (before the next request), after the summary. */
function turnResults(tl: Timeline, main: TranscriptItem[], since: number): string[] {
  const out: string[] = [];
  for (const request of tl.requests.slice(1)) {
    if (request.index <= since) continue;
    for (let i = request.index - 1; i > since; i--) {
      const item = main[i];
      if (item.kind === 'message' && item.role === 'user' && !item.meta) break;
      if (item.kind !== 'message' || item.role !== 'assistant') continue;
      const opening = DONE.test(item.text) || /^#+ /m.test(item.text) ? openingStatement(item.text) : undefined;
      if (opening) out.push(opening);
      break;
    }
  }
  return out;
}

/** Whether the work went on past the task list's last change (tests passed, a commit or a push after it). */
function workedPastPlan(tl: Timeline): boolean {
  const after = tl.tasks.lastIndex;
  return tl.outcomes.some((o) => o.index > after) || tl.testRuns.some((r) => r.passed && r.index > after);
}

/** What the fields are read from: the timeline, the last compaction summary, where the session stopped. */
interface Reading {
  tl: Timeline;
  main: TranscriptItem[];
  /** The last compaction summary's index (-1 without one). */
  since: number;
  summary: { text: string; index: number } | undefined;
  sections: Partial<Record<SectionName, string>>;
  /** Work followed the last summary, so its state no longer stands. */
  followed: boolean;
  stopped: string | undefined;
  planDone: boolean;
  plan: ReturnType<TaskLog['current']>;
  /** The final message, when it ends the session after the summary and not mid-turn. */
  finalText: string | undefined;
}

function readingOf(main: TranscriptItem[], tl: Timeline, profile: ExtractProfile): Reading {
  const summary = tl.summaries[tl.summaries.length - 1];
  const since = summary?.index ?? -1;
  const sections: Partial<Record<SectionName, string>> = summary ? summarySections(summary.text) : {};
  // work after the summary (a tool call, or a new request) means its state no longer stands
  const followed = summary !== undefined && main.slice(since + 1).some((i) => i.kind === 'tool_call' || (i.kind === 'message' && i.role === 'user' && !i.meta && profile.request(i.text) !== undefined));
  // where the session stopped: an unanswered request, or a turn cut short (its last words are narration, not a result)
  const stopped = unfinished(tl, main, since);
  const finalText = tl.final && tl.final.index > since && !stopped?.startsWith('Finish') ? tl.final.text : undefined;
  return { tl, main, since, summary, sections, followed, stopped, planDone: !tl.tasks.empty && workedPastPlan(tl), plan: tl.tasks.empty ? [] : tl.tasks.current(), finalText };
}

/** The first summary's primary request describes the session's start; later ones, the latest request. */
function goalFrom(r: Reading): string[] {
  const { tl } = r;
  const firstSections = tl.summaries.length > 1 ? summarySections(tl.summaries[0].text) : r.sections;
  const primary = firstSections.primary ? condense(sectionLead(firstSections.primary) ?? '', 140) || undefined : undefined;
  return primary ? [primary] : goalOf(tl);
}

/**
 * Progress, the end state first (shortening keeps the first items): the final state, the summary's
 * current work when nothing followed it, the final statement, pull requests and pushes, commits,
 * tasks whose work evidently finished, and closed tasks (latest first).
 */
function progressFrom(r: Reading): string[] {
  const { tl } = r;
  const progress: string[] = [];
  const end = endState(tl);
  if (end) progress.push(end);
  const current = r.sections.current ? sectionLead(r.sections.current) : undefined;
  // the summary's current work stands when nothing followed it, or when it says the work had finished
  if (current && (!r.followed || FINISHED.test(current))) progress.push(current);
  const opening = r.finalText ? openingStatement(r.finalText) : undefined;
  if (opening) addDistinct(progress, [opening]);
  // pushes and pull requests: the end state names the last ones
  if (!end) addDistinct(progress, [...new Set(tl.outcomes.filter((o) => o.kind !== 'commit').map((o) => o.text))].slice(-2).reverse());
  // latest first; the commit the end state names already stands in its first line, so its subject goes last
  const commits = tl.outcomes.filter((o) => o.kind === 'commit').slice(-MAX_COMMITS).map((o) => o.text).reverse();
  addDistinct(progress, end && commits.length > 1 ? [...commits.slice(1), commits[0]] : commits);
  // what each earlier turn ended with (the agent's last words before the next request), latest first
  addDistinct(progress, turnResults(tl, r.main, r.since).reverse().slice(0, MAX_TURN_RESULTS));
  if (r.planDone) addDistinct(progress, r.plan.filter((p) => p.status === 'in_progress').map((p) => p.text));
  addDistinct(progress, tl.tasks.completed.slice(-MAX_COMPLETED).map((c) => c.text).reverse(), MAX_PROGRESS);
  return progress;
}

/** Decisions: the summaries' decision-bearing sections (latest first), then cue statements after the last one, then commit messages'. */
function decisionsFrom(r: Reading): string[] {
  const { tl, main } = r;
  const decisions: string[] = [];
  const fromSummaries: string[] = [];
  for (const s of [...tl.summaries].reverse()) addDistinct(fromSummaries, summaryDecisions(summarySections(s.text)));
  addDistinct(decisions, whyFirst(fromSummaries), MAX_SUMMARY_DECISIONS);
  // the latest cue statements after the last summary, as many as there is room for, in their order
  const cues: string[] = [];
  const room = Math.min(MAX_ALL_DECISIONS - decisions.length, MAX_DECISIONS);
  for (let i = main.length - 1; i > r.since && cues.length < room; i--) {
    const item = main[i];
    if (item.kind === 'message' && item.role === 'assistant') addDistinct(cues, decisionSentences(item.text, i === tl.final?.index).reverse(), room);
  }
  addDistinct(decisions, cues.reverse());
  addDistinct(decisions, tl.commitDecisions.slice(-MAX_DECISIONS).map((c) => c.text), MAX_ALL_DECISIONS);
  return decisions;
}

/** Blockers: failures never settled by a later success, the last API error, blocked tasks. */
function blockersFrom(r: Reading, t: Transcript, cwd: string | undefined): string[] {
  const blockers = blockersOf(r.main, cwd);
  const lastAssistantIndex = t.items.reduce((at, item, i) => (item.role === 'assistant' && item.kind === 'message' && !item.sidechain ? i : at), -1);
  const apiError = t.apiErrors?.filter((e) => e.index > lastAssistantIndex).pop();
  if (apiError) blockers.push(`API error: ${condense(apiError.text, 160)}`);
  for (const p of r.plan) if (p.status === 'blocked' || (p.status !== 'completed' && /\bblocked\b/i.test(p.text))) blockers.push(p.text);
  return blockers;
}

/** The task list's open items at the end (none when its work evidently finished and the final message says so). */
function openTasks(r: Reading): string[] {
  const { tl, plan, planDone } = r;
  if (tl.tasks.empty || tl.tasks.lastIndex <= r.since) return [];
  const open: string[] = [];
  if (!planDone) for (const p of plan) if (p.status === 'in_progress') open.push(p.text);
  const finished = planDone && r.finalText !== undefined && DONE.test(r.finalText);
  if (!finished) for (const p of plan) if (p.status === 'pending' && !/\bblocked\b/i.test(p.text)) open.push(p.text);
  return open;
}

/** When files were edited after the session's last commit (or with none), what the next session must know: the work is not committed. */
function uncommitted(tl: Timeline): string | undefined {
  if (tl.lastEdit < 0) return undefined;
  const commit = tl.outcomes.filter((o) => o.kind === 'commit').pop();
  if (commit && commit.index > tl.lastEdit) return undefined;
  return `Commit the finished work: ${commit ? 'files were edited after the last commit' : 'the session made no commit'}, so the changes are not committed yet.`;
}

/** The final message's stated next steps, its closing question, or "none" when it says the work is done (and it is committed). */
function finalNextSteps(nextSteps: string[], finalText: string, blocked: boolean, tl: Timeline): void {
  const userAction = (s: string) => blocked && USER_ACTION.test(s);
  addDistinct(nextSteps, sentences(finalText).filter((s) => s.length >= 25 && (NEXT_CUE.test(s) || userAction(s)) && !s.endsWith('?')).map((s) => condense(s, 240)));
  const question = closingQuestion(finalText);
  if (question) addDistinct(nextSteps, [`Answer the agent's question: ${question}`]);
  if (nextSteps.length === 0 && DONE.test(finalText)) nextSteps.push(uncommitted(tl) ?? 'None: the session ended with the work done.');
}

/**
 * Next Steps: where the session stopped, the task list at the end (what evidently finished is
 * progress), the final message's stated next steps, the summary's only when nothing followed it.
 */
function nextStepsFrom(r: Reading, blocked: boolean): string[] {
  const nextSteps: string[] = [];
  if (r.stopped) nextSteps.push(r.stopped);
  nextSteps.push(...openTasks(r));
  if (r.summary && !r.followed) {
    const { sections } = r;
    if (sections.pending) addDistinct(nextSteps, sectionItems(sections.pending).filter((s) => !NOTHING.test(s) && !SUMMARY_DONE.test(s)));
    const next = sections.next ? sectionLead(sections.next) : undefined;
    if (next && !NOTHING.test(next) && !SUMMARY_DONE.test(next)) addDistinct(nextSteps, [next]);
  }
  if (r.finalText) finalNextSteps(nextSteps, r.finalText, blocked, r.tl);
  return nextSteps;
}

/** Read a transcript's facts with a format's profile. */
export function extractSession(t: Transcript, profile: ExtractProfile, options: { cwd?: string } = {}): SessionFacts {
  const own = t.items.filter((i) => !i.sidechain);
  // a transcript of subagents only (sidechains): their work is the session's
  const main = own.some((i) => i.kind === 'message') ? own : t.items;
  const facts: SessionFacts = { goal: [], progress: [], decisions: [], blockers: [], nextSteps: [], changedFiles: [] };
  const tl = readTimeline(main, profile);
  const cwd = t.cwd ?? options.cwd;
  if (tl.messages > 0 && !tl.readable) {
    facts.unreadable = 'every message in the transcript is redacted; nothing could be read';
    facts.changedFiles = fileFacts(t.items, cwd);
    return facts;
  }
  const r = readingOf(main, tl, profile);
  facts.goal = goalFrom(r);
  facts.progress = progressFrom(r);
  facts.decisions = decisionsFrom(r);
  facts.blockers = blockersFrom(r, t, cwd);
  facts.nextSteps = nextStepsFrom(r, facts.blockers.length > 0);
  // every file, subagents' edits included
  facts.changedFiles = fileFacts(t.items, cwd);
  return facts;
}

/** The files the session's tools and commands changed, each under its final path. */
function fileFacts(items: TranscriptItem[], cwd: string | undefined): FactFile[] {
  const out: FactFile[] = [];
  for (const f of changedFiles(items, cwd)) {
    // a project file moved to a temporary folder is still a file the project lost
    const shown = showFile(f.path, cwd, f.from !== undefined);
    if (!shown) continue;
    const from = f.from ? showFile(f.from, cwd, true) : undefined;
    if (from) shown.from = from.outside ? from.path : posix.normalize(from.path);
    if (f.deleted) shown.deleted = true;
    // moved out of the project: the project lost the file at its old path
    if (shown.outside && from && !from.outside) out.push({ ...from, deleted: true, movedTo: shown.path });
    else out.push(shown);
  }
  return out;
}
