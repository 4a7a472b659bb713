/**
 * What a session did, read from what the agent itself recorded (design §7): the first real user
 * request, the agent's compaction summary, its task list, decision statements, errors never followed
 * by a success, and the files its tools wrote. Each format supplies a profile (how its requests and
 * task lists look); the reading is the same for all. Pure: no disk, no clock.
 */
import { isAbsolute, relative, resolve } from 'node:path';
import { changedFiles } from './files.js';
import { isRecord } from '../values.js';
import type { Transcript, TranscriptItem } from './types.js';

export type PlanStatus = 'completed' | 'in_progress' | 'pending' | 'blocked';

export interface PlanItem {
  text: string;
  status: PlanStatus;
}

export interface ExtractProfile {
  /** The user's request in a user message, or undefined when the message is not one (a preamble, a reminder). */
  request(text: string): string | undefined;
  /** The task list a tool call sets (TodoWrite, update_plan, write_todos), or undefined. */
  plan(call: TranscriptItem): PlanItem[] | undefined;
}

export interface FactFile {
  /** Relative to the session's working directory, or absolute when outside it. */
  path: string;
  /** Absolute, when the working directory (or the path itself) says where it is. */
  abs?: string;
  outside?: boolean;
}

export interface SessionFacts {
  goal: string[];
  progress: string[];
  decisions: string[];
  blockers: string[];
  nextSteps: string[];
  changedFiles: FactFile[];
}

const MAX_DECISIONS = 3;
const MAX_BLOCKERS = 3;

/** Whitespace collapsed, leading Markdown dropped, the first sentence, at most `max` characters. */
export function condense(text: string, max = 200): string {
  let t = text.replace(/\s+/g, ' ').replace(/^(?:#+\s*|[-*+]\s+|\d+[.)]\s+)+/, '').replace(/\*\*/g, '').trim().replace(/:$/, '');
  const end = t.search(/[.!?](?:\s|$)/);
  if (end > 20 && end < t.length - 1) t = t.slice(0, end + 1);
  if (t.length <= max) return t;
  const space = t.lastIndexOf(' ', max - 1);
  return `${t.slice(0, space > max - 40 ? space : max - 1)}…`;
}

// ---- requests ----

const PREAMBLE = /^(?:<[a-z_-]+[\s>]|# AGENTS\.md instructions|caveat:|\[Request interrupted|This session is being continued from a previous conversation)/i;

/** A user message's request: its first line (with the next when the first only announces it), or undefined for preambles. */
export function plainRequest(text: string): string | undefined {
  const trimmed = text.trim();
  if (!trimmed || PREAMBLE.test(trimmed)) return undefined;
  const lines = trimmed.split('\n').map((l) => l.trim()).filter(Boolean);
  let first = lines[0];
  if (first.endsWith(':') && lines[1]) first = `${first} ${lines[1].replace(/^#+\s*/, '')}`;
  return condense(first, 300);
}

// ---- task lists ----

export function planStatus(value: unknown): PlanStatus | undefined {
  const s = typeof value === 'string' ? value.toLowerCase().replace(/[\s-]+/g, '_') : '';
  if (s === 'completed' || s === 'done' || s === 'complete') return 'completed';
  if (s === 'in_progress' || s === 'active' || s === 'doing') return 'in_progress';
  if (s === 'pending' || s === 'todo' || s === 'not_started' || s === 'open') return 'pending';
  if (s === 'blocked') return 'blocked';
  return undefined;
}

/** Task list items from `list` (objects with one of `textKeys` and a `status`); malformed entries are skipped. */
export function planItems(list: unknown, textKeys: string[]): PlanItem[] {
  if (!Array.isArray(list)) return [];
  const out: PlanItem[] = [];
  for (const entry of list) {
    if (!isRecord(entry)) continue;
    const key = textKeys.find((k) => typeof entry[k] === 'string' && (entry[k] as string).trim());
    const status = planStatus(entry.status);
    if (!key || !status) continue;
    out.push({ text: condense(entry[key] as string, 200), status });
  }
  return out;
}

// ---- compaction summaries ----

const SECTION = /^\s*(?:#{1,4}\s*)?(?:\d+\.\s*)?(?:\*\*)?(Primary Request(?: and Intent)?|Pending Tasks|Current Work|Optional Next Steps?)(?:\*\*)?\s*(?:\([^)]*\))?\s*:?\s*(?:\*\*)?\s*(.*)$/i;
const ANY_SECTION = /^\s*(?:#{1,4}\s*)?\d+\.\s+(?:\*\*)?[A-Z][^:\n]{2,60}:/;

/** A compaction summary's sections by name: primary, pending, current, next (absent when the summary has none). */
export function summarySections(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  let open: string | undefined;
  let body: string[] = [];
  const close = () => {
    if (open && !(open in out)) out[open] = body.join('\n').trim();
    open = undefined;
    body = [];
  };
  for (const line of text.split('\n')) {
    const m = SECTION.exec(line);
    if (m) {
      close();
      const name = m[1].toLowerCase();
      open = name.startsWith('primary') ? 'primary' : name.startsWith('pending') ? 'pending' : name.startsWith('current') ? 'current' : 'next';
      if (m[2]) body.push(m[2]);
      continue;
    }
    if (open && ANY_SECTION.test(line)) close();
    else if (open) body.push(line);
  }
  close();
  return out;
}

/** A section's first paragraph (its first sentence), or its first list item when it starts with a list. */
export function sectionLead(body: string): string | undefined {
  const para = body.split(/\n\s*\n/)[0]?.trim();
  if (!para) return undefined;
  return /^(?:[-*+]|\d+[.)])\s/.test(para) ? sectionItems(body)[0] : condense(para.split('\n')[0]);
}

/** Top-level list items of a section, or its first paragraph when it has none; code blocks left out. */
export function sectionItems(body: string): string[] {
  const lines = body.split('\n');
  const items: { indent: number; text: string }[] = [];
  let fence = false;
  for (const line of lines) {
    if (/^\s*```/.test(line)) {
      fence = !fence;
      continue;
    }
    const m = !fence && /^(\s*)(?:[-*+]|\d+[.)])\s+(.+)$/.exec(line);
    if (m) items.push({ indent: m[1].length, text: m[2] });
  }
  if (items.length) {
    const top = Math.min(...items.map((i) => i.indent));
    return items.filter((i) => i.indent === top).map((i) => condense(i.text));
  }
  const para = body.split(/\n\s*\n/)[0]?.trim();
  return para ? [condense(para)] : [];
}

const MARKER_START = /^(?:[-*>]\s*)?(?:\*\*)?(?:decisions?|blockers?|todo|next[ -]steps?|goal|done|progress)(?:\*\*)?\s*:/i;
const NOTHING = /^(?:none|no pending|nothing|n\/a)\b/i;

// ---- decisions ----

const STRONG_CUE = /\b(?:decided|decide to|chose|choose to|went with|go with|opted|instead of|rather than|trade-?offs?)\b/i;
const WEAK_CUE = /\bbecause\b/i;
const PLAN_WORD = /\b(?:I'll|I will|we'll|we will|let's|use|using|keep|switch(?:ed)?|prefer)\b/i;

function decisionSentences(text: string): string[] {
  const out: string[] = [];
  let fence = false;
  for (const raw of text.split('\n')) {
    if (/^\s*```/.test(raw)) {
      fence = !fence;
      continue;
    }
    if (fence) continue;
    for (const sentence of raw.split(/(?<=[.!?])\s+(?=[A-Z`*])/)) {
      const s = sentence.replace(/^\s*(?:[-*+]|\d+[.)]|#+)\s*/, '').replace(/\*\*/g, '').trim();
      if (s.length < 25 || s.endsWith('?')) continue;
      if (STRONG_CUE.test(s) || (WEAK_CUE.test(s) && PLAN_WORD.test(s))) out.push(condense(s, 240));
    }
  }
  return out;
}

// ---- blockers ----

const SHELL_TOOLS = /^(?:bash|shell|shell_command|exec_command|local_shell|run_shell_command|terminal|execute_command)$/i;
/** Tools whose failure can leave work undone: commands and writes (a failed read or search is only a look). */
const CONSEQUENTIAL = /^(?:bash|shell|shell_command|exec_command|local_shell|run_shell_command|terminal|execute_command|apply_patch|write|edit|multiedit|notebookedit|write_file|replace|create_file|str_replace_editor)$/i;
const ERROR_LINE = /\b(?:error|errors|failed|failure|fail|exception|panic|fatal|cannot|can't|not found|denied|refused|timed out)\b/i;
const REJECTED = /user doesn't want to proceed|was rejected|user rejected|interrupted by user/i;

/** The command a shell-like call ran. */
function commandOf(input: unknown): string | undefined {
  if (typeof input === 'string') return input;
  if (!isRecord(input)) return undefined;
  const c = input.command ?? input.cmd;
  if (typeof c === 'string') return c;
  if (Array.isArray(c)) {
    const parts = c.filter((x): x is string => typeof x === 'string');
    // ["bash", "-lc", "npm test"]: the script
    return parts.length >= 3 && /^-l?c$/.test(parts[1]) ? parts.slice(2).join(' ') : parts.join(' ');
  }
  return undefined;
}

/** What a later success must match to settle a failure: the program and its subcommand, or the tool and its file. */
function callKey(call: TranscriptItem, cwd: string | undefined): { key: string; label: string } {
  const name = call.toolName ?? 'tool';
  const command = SHELL_TOOLS.test(name) ? commandOf(call.toolInput) : undefined;
  if (command !== undefined) {
    const last = command.split(/&&|;|\|\|/).map((s) => s.trim()).filter(Boolean).pop() ?? command;
    const words = last.replace(/^(?:\w+=\S*\s+)+/, '').split(/\s+/).filter((w) => !w.startsWith('-'));
    const key = words.slice(0, /^(?:npm|pnpm|yarn|bun|npx)$/.test(words[0] ?? '') ? 3 : 2).join(' ');
    return { key: `shell:${key}`, label: condense(last, 80) };
  }
  const input = isRecord(call.toolInput) ? call.toolInput : {};
  const target = ['file_path', 'path', 'notebook_path', 'url', 'pattern'].map((k) => input[k]).find((v) => typeof v === 'string');
  return { key: `${name}:${target ?? ''}`, label: typeof target === 'string' ? `${name} ${showFile(target, cwd).path}` : name };
}

const TEST_NAMES = [/(?:^|\s)--- FAIL: (\S+)/gm, /^FAILED (\S+)/gm, /^\s*(?:×|✕|✗)\s+(.+?)(?:\s+\d+\s*ms)?$/gm, /^test (\S+) \.\.\. FAILED$/gm];

/** Names of failing tests in a test run's output (Go, pytest, Jest/Vitest, cargo). */
export function failingTests(output: string): string[] {
  const names = new Set<string>();
  for (const pattern of TEST_NAMES) for (const m of output.matchAll(pattern)) names.add(m[1].trim());
  return [...names];
}

function errorLine(text: string): string {
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  const line = lines.find((l) => ERROR_LINE.test(l) && !/^exit code/i.test(l)) ?? lines.find((l) => !/^exit code/i.test(l)) ?? lines[0] ?? '';
  return condense(line.replace(/<\/?tool_use_error>/g, ''), 160);
}

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
    const { key, label } = callKey(call, cwd);
    if (!failed) {
      open.delete(key);
      continue;
    }
    if (REJECTED.test(item.text)) continue;
    const tests = failingTests(item.text);
    open.delete(key);
    open.set(key, tests.length ? `\`${label}\` fails: ${tests.slice(0, 5).join(', ')}${tests.length > 5 ? ` and ${tests.length - 5} more` : ''}` : `\`${label}\` failed: ${errorLine(item.text)}`);
  }
  return [...open.values()].slice(-MAX_BLOCKERS);
}

// ---- files ----

function showFile(path: string, cwd: string | undefined): FactFile {
  const posix = path.replace(/\\/g, '/');
  if (!cwd) return isAbsolute(posix) ? { path: posix, abs: posix } : { path: posix };
  const abs = resolve(cwd, posix);
  const rel = relative(cwd, abs);
  if (rel && !rel.startsWith('..') && !isAbsolute(rel)) return { path: rel.split('\\').join('/'), abs };
  return { path: abs, abs, outside: true };
}

// ---- the whole ----

/** Read a transcript's facts with a format's profile. */
export function extractSession(t: Transcript, profile: ExtractProfile, options: { cwd?: string } = {}): SessionFacts {
  const main = t.items.filter((i) => !i.sidechain);
  const facts: SessionFacts = { goal: [], progress: [], decisions: [], blockers: [], nextSteps: [], changedFiles: [] };

  let request: string | undefined;
  let summary: { text: string; index: number } | undefined;
  let plan: { items: PlanItem[]; index: number } | undefined;
  let lastAssistant: string | undefined;
  main.forEach((item, index) => {
    if (item.kind === 'message' && item.role === 'user') {
      if (item.compactSummary) summary = { text: item.text, index };
      else if (request === undefined && !item.meta) request = profile.request(item.text);
    } else if (item.kind === 'message' && item.role === 'assistant') lastAssistant = item.text;
    else if (item.kind === 'tool_call') {
      const p = profile.plan(item);
      if (p) plan = { items: p, index };
    }
  });
  // the latest few distinct decision statements: read from the end, stop once there are enough
  const decisions: string[] = [];
  const seen = new Set<string>();
  for (let i = main.length - 1; i >= 0 && decisions.length < MAX_DECISIONS; i--) {
    const item = main[i];
    if (item.kind !== 'message' || item.role !== 'assistant') continue;
    const found = decisionSentences(item.text);
    for (let j = found.length - 1; j >= 0 && decisions.length < MAX_DECISIONS; j--) {
      const k = found[j].toLowerCase().replace(/\W+/g, ' ').trim();
      if (seen.has(k)) continue;
      seen.add(k);
      decisions.unshift(found[j]);
    }
  }

  const sections = summary ? summarySections(summary.text) : {};
  const primary = sections.primary ? sectionItems(sections.primary)[0] : undefined;
  const goal = primary ?? request;
  if (goal) facts.goal.push(goal);

  const planAfterSummary = plan !== undefined && (!summary || plan.index > summary.index);
  if (plan) for (const p of plan.items) if (p.status === 'completed') facts.progress.push(p.text);
  const current = sections.current ? sectionLead(sections.current) : undefined;
  if (current && !planAfterSummary) facts.progress.push(current);
  if (lastAssistant) {
    // its opening statement, unless it is code or a marked line (those are read as such)
    const closing = lastAssistant.split(/\n\s*\n/).map((p) => p.trim()).find((p) => p && !p.startsWith('```') && !MARKER_START.test(p));
    if (closing) facts.progress.push(condense(closing));
  }

  facts.decisions.push(...decisions);

  const cwd = t.cwd ?? options.cwd;
  facts.blockers.push(...blockersOf(t.items.filter((i) => !i.sidechain), cwd));
  const lastAssistantIndex = t.items.reduce((at, item, i) => (item.role === 'assistant' && item.kind === 'message' && !item.sidechain ? i : at), -1);
  const apiError = t.apiErrors?.filter((e) => e.index > lastAssistantIndex).pop();
  if (apiError) facts.blockers.push(`API error: ${condense(apiError.text, 160)}`);
  if (plan) for (const p of plan.items) if (p.status === 'blocked' || (p.status !== 'completed' && /\bblocked\b/i.test(p.text))) facts.blockers.push(p.text);

  if (plan) {
    for (const p of plan.items) if (p.status === 'in_progress') facts.nextSteps.push(p.text);
    for (const p of plan.items) if (p.status === 'pending' && !/\bblocked\b/i.test(p.text)) facts.nextSteps.push(p.text);
  }
  if (!planAfterSummary) {
    if (sections.pending) facts.nextSteps.push(...sectionItems(sections.pending).filter((s) => !NOTHING.test(s)));
    const next = sections.next ? sectionLead(sections.next) : undefined;
    if (next && !NOTHING.test(next) && !/\b(?:is|are) (?:complete|done)\b|no further action/i.test(next)) facts.nextSteps.push(next);
  }

  facts.changedFiles = changedFiles(t.items).map((f) => showFile(f.path, cwd));
  return facts;
}
