/**
 * `memctx flush`: one summary per run, in four steps — gather (options, --from, changed files, the
 * transcript, git) → merge (the template's fields) → render (fit the token budget) → write (to
 * sessions/, under the lock). In hook mode `neverFail` logs every problem and the exit code is 0.
 */
import { resolve } from 'node:path';
import { EXIT_PROBLEMS, MemctxError, type ErrorDetails } from '../../kernel/errors.js';
import type { FlushRequest } from './schema.js';
import type { RunCommand } from './summarize.js';
import { readUserTemplate, listUserTemplates, readSourceHead, freePath, nextDecisionId, writeMemoryText, findHookSessionFile, foldPendingFlushes, savePendingFlush } from '../../kernel/summary/files.js';
import { parseMemoryText, ParseFailure } from '../../kernel/store/parse.js';
import { MAX_INPUT_BYTES, readRegularFile } from '../../kernel/store/read-file.js';
import { smallTextCounter } from '../../kernel/tokens/small.js';
import { decodeInput } from '../../kernel/store/decode.js';
import { readTranscriptText, transcriptPath } from '../../kernel/sources/transcript-file.js';
import { readTranscriptWith } from '../../kernel/transcript/reader.js';
import { defaultSince, gitChanges, gitRoot, sessionGitChanges, type GitChange } from '../../kernel/sources/git.js';
import { LockBusy, withMemoryLock } from '../../kernel/store/write.js';
import { isInside } from '../../kernel/store/paths.js';
import { rebuildIndex } from '../../kernel/memindex/reindex.js';
import { readMemoryFile, isProblem } from '../../kernel/store/scan.js';
import * as flushCore from './core.js';
import { agentRules, keptAgentSummary } from './agent-summary.js';
import { appendFlushLog, hookFailureText, logHookFailure } from '../../kernel/state/flush-log.js';
import { isoTimestamp } from '../../kernel/store/schema.js';
import { findMemoryDir } from '../../kernel/store/find.js';
import { HOOK_STDIN_WAIT_MS, parseHookInput } from '../../kernel/summary/hook-input.js';
import { agentSummaryRules } from '../../kernel/summary/limits.js';
import { DEFAULT_SUMMARIZE_TIMEOUT, isSummaryAgent, SUMMARY_JOB_ENV, type SummaryAgent } from '../../kernel/summary/summarizers.js';
const { existsSync, realpathSync, statSync } = process.getBuiltinModule('node:fs');

/** A flush's options, checked and with their defaults (schemas/flush.ts resolveFlush). */
export type FlushOptions = FlushRequest;

/** What a flush reads from the outside world. */
export interface FlushDeps {
  cwd: string;
  env: Record<string, string | undefined>;
  home: string;
  now: () => Date;
  readStdin: (maxBytes?: number, timeoutMs?: number) => Promise<string>;
  stdinIsTTY?: boolean;
  /** --dir and --claude. */
  dir?: string;
  claude?: boolean;
  runCommand?: RunCommand;
  /** Starts the background summary's worker (tests); default a detached node process. */
  startSummaryWorker?: import('./summary-job.js').StartWorker;
  /** Which changed files may be read for their summary (the MCP server confines them to the project); default all. */
  mayRead?: (abs: string) => boolean;
  /** How long `--hook` waits for stdin to close and for the memory lock (tests pass shorter ones); default HOOK_WAITS. */
  hookWaits?: HookWaits;
}

interface HookWaits {
  stdinMs: number;
  lockMs: number;
}

/** The hook's waits: the agent's hook timeout is 10 s. */
const HOOK_WAITS: HookWaits = { stdinMs: HOOK_STDIN_WAIT_MS, lockMs: 3_000 };

/** --strict refused: nothing written; the warnings gathered so far come with it. */
export class FlushRefused extends MemctxError {
  constructor(
    readonly warnings: string[],
    message: string,
    options: ConstructorParameters<typeof MemctxError>[1],
  ) {
    super(message, options);
  }
}

/** Flush into the memory directory `root`. */
export async function flush(options: FlushOptions, deps: FlushDeps & { root: string }): Promise<FlushOutcome> {
  return flushOnce(deps, options, { root: deps.root, cwd: deps.cwd, transcript: options.transcript, sessionId: options.sessionId, agentSummary: options.agentSummary });
}

/** Every field came out empty: an error for `memctx flush`, a skip for the hook (an empty session). */
class NothingToRecord extends MemctxError {
  constructor(message: string, details: ErrorDetails, readonly warnings: string[]) {
    super(message, details);
  }
}

export interface HookResult {
  outcome?: FlushOutcome;
  /** Nothing was written, and nothing went wrong (an empty session); already logged when `logged`. */
  skipped?: string;
  /** What went wrong, when something did (already logged when `logged`). */
  error?: { message: string; stack?: string };
  logged: boolean;
  root?: string;
}

type FlushModule = typeof flushCore;
type FieldValues = import('../../kernel/summary/fields.js').FieldValues;
type Template = import('../../kernel/summary/templates.js').Template;
type FlushPlan = import('../../kernel/summary/record.js').FlushPlan;
type PlanInput = import('../../kernel/summary/record.js').PlanInput;
type FieldSource = import('../../kernel/summary/fields.js').FieldSource;
type SessionMeta = import('../../kernel/summary/record.js').SessionMeta;
type ChangedEntry = import('../../kernel/summary/changed.js').ChangedEntry;
type ChangedScope = import('../../kernel/summary/changed.js').ChangedScope;
type AgentSummaryModule = typeof import('../../kernel/summary/agent-summary.js');

/** What one flush did, for the terminal, --json and the hook log. */
export interface FlushOutcome {
  plan: FlushPlan;
  /** Path inside the memory directory. */
  path: string;
  written: boolean;
  replaced: boolean;
  text: string;
  warnings: string[];
  notes: string[];
}

/** Where a flush runs: the memory directory, the working directory, and the hook's facts. */
interface FlushScope {
  root: string;
  cwd: string;
  transcript?: string;
  sessionId?: string;
  hookEvent?: string;
  /** A hook's (set with hookEvent): how long to wait for the memory lock before keeping the summary in pending/. */
  lockWaitMs?: number;
  /** The transcript once read (for --summarize-with). */
  read?: import('../../kernel/transcript/types.js').Transcript;
  /** The agent writes its own summary: it replaces this session's earlier file. */
  agentSummary?: boolean;
}

/** The template by name: templates/NAME.md in the memory directory first, then the built-ins. */
async function loadTemplate(flush: FlushModule, root: string, name: string): Promise<Template> {
  if (!flush.isTemplateName(name)) throw new MemctxError(`unknown template "${name}"`, { hint: 'template names are file names in templates/, such as session or my-review' });
  const user = readUserTemplate(root, name);
  if (user) {
    let data: Record<string, unknown> = {};
    let body = user.text;
    let bodyLine = 1;
    try {
      const parsed = parseMemoryText(user.path, user.text, { mtimeMs: 0, size: user.text.length });
      if (parsed.hasFrontmatter) ({ data, body, bodyLine } = parsed);
    } catch (err) {
      if (err instanceof ParseFailure) throw new MemctxError(`template ${user.path}: ${err.message}`, { file: user.path, line: err.line, hint: err.hint });
      throw err;
    }
    const text = body.replace(/\r\n/g, '\n');
    // Placeholder lines count from the template body's first line; the file's lines are what users see.
    const offset = bodyLine - 1 + text.match(/^\n*/)![0].length;
    try {
      const template = flush.userTemplate(name, user.path, text.replace(/^\n+/, ''), data);
      return { ...template, placeholders: template.placeholders.map((p) => ({ ...p, line: p.line + offset })) };
    } catch (err) {
      if (err instanceof flush.TemplateError) {
        throw new MemctxError(`template ${user.path}: ${err.message}`, { file: user.path, line: err.line === undefined ? undefined : err.line + offset, hint: err.hint });
      }
      throw err;
    }
  }
  if (flush.isBuiltInTemplate(name)) return flush.builtInTemplate(name);
  const available = [...flush.BUILT_IN_TEMPLATES, ...listUserTemplates(root)];
  const known = [...new Set(available)];
  const { closestMatch } = await import('./foreground.js');
  const guess = closestMatch(name, known);
  const create = `create templates/${name}.md in the memory directory with {{field}} placeholders`;
  throw new MemctxError(`unknown template "${name}"`, { hint: guess !== undefined ? `did you mean --template ${guess}? (or ${create})` : `use one of: ${known.join(', ')}; or ${create}` });
}

/** `--from FILE|-`: field values, with the keys as written for messages. */
async function readFromInput(deps: FlushDeps, from: string): Promise<{ label: string; parsed: import('./input.js').ParsedInput }> {
  let text: string;
  const label = from === '-' ? 'stdin' : from;
  if (from === '-') text = decodeInput(Buffer.from(await deps.readStdin()), label);
  else {
    try {
      text = decodeInput(readRegularFile(resolve(deps.cwd, from), { name: from, maxBytes: MAX_INPUT_BYTES }), from);
    } catch (err) {
      if (err instanceof MemctxError) throw err; // NotReadable, or binary data
      throw new MemctxError(`cannot read --from file (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, { file: from, hint: 'check the path; use - to read stdin' });
    }
  }
  const { detectFormat, parseFieldsText, FlushInputError } = await import('./foreground.js');
  try {
    return { label, parsed: parseFieldsText(text, detectFormat(from === '-' ? undefined : from, text)) };
  } catch (err) {
    if (err instanceof FlushInputError) throw new MemctxError(err.message, { file: label, line: err.line, hint: err.hint });
    throw err;
  }
}

/** Values given on the command line. */
function optionValues(flags: FlushOptions, normalizeKey: (key: string) => string): FieldValues {
  const values = Object.create(null) as FieldValues; // keys are user text (--field toString=x)
  const add = (key: string, items: string[] | undefined) => {
    if (items?.length) values[key] = [...(values[key] ?? []), ...items];
  };
  add('goal', flags.goal === undefined ? undefined : [flags.goal]);
  add('progress', flags.progress);
  add('decisions', flags.decision);
  add('changedFiles', flags.changed);
  add('blockers', flags.blocker);
  add('nextSteps', flags.next);
  for (const pair of flags.field ?? []) {
    const at = pair.indexOf('=');
    const key = at > 0 ? normalizeKey(pair.slice(0, at)) : '';
    if (!key) throw new MemctxError(`--field must be KEY=VALUE, got "${pair}"`, { hint: 'for example --field rationale="fewer round trips"' });
    add(key, [pair.slice(at + 1)]);
  }
  return values;
}

/** How many changed files get a one-line summary (reading each one). */
const MAX_SUMMARIES = 100;
/** How long each of the hook's git calls may take: a hanging git must not hold the session's end, yet git status on a large repository or a loaded machine takes several hundred ms (the recipes give the hook 10 s; the lock wait is 3 s). */
const HOOK_GIT_TIMEOUT_MS = 1000;

/**
 * Each entry's line, with a one-line summary of the source files that exist (read from disk) and
 * that `mayRead` allows: a file outside the project is listed, never read into the summary.
 */
async function changedLines(flush: FlushModule, entries: ChangedEntry[], mayRead: (abs: string) => boolean): Promise<string[]> {
  let summarized = 0;
  return entries.map((entry) => {
    let summary: string | undefined;
    if (entry.abs && entry.note !== '(deleted)' && flush.isSourcePath(entry.display) && summarized < MAX_SUMMARIES && mayRead(entry.abs)) {
      const text = readSourceHead(entry.abs);
      summarized++;
      if (text !== undefined) summary = flush.summarizeSource(entry.display, text);
    }
    return flush.changedLine(entry, summary);
  });
}

/** True when `abs`, links resolved, is inside the project `base` (both real paths). */
function inProject(base: string, abs: string): boolean {
  try {
    return isInside(realpathSync(base), realpathSync(abs));
  } catch {
    return false;
  }
}

function isFile(abs: string): boolean {
  try {
    return statSync(abs).isFile();
  } catch {
    return false;
  }
}

/** What the gather step read, before the template's fields are chosen. */
interface Gathered {
  merged: FieldValues;
  sourcesOf: (key: string) => string[];
  /** `"mood" in notes.yaml (line 5)` for keys given in --from. */
  keyLines: Map<string, string>;
  /** What the transcript says of the session (agent, model, start and end). */
  session?: SessionMeta;
}

/** Gather, given inputs: --from, then the options. */
async function gatherGiven(deps: FlushDeps, flush: FlushModule, flags: FlushOptions): Promise<{ sources: FieldSource[]; keyLines: Map<string, string> }> {
  const sources: FieldSource[] = [];
  const keyLines = new Map<string, string>();
  if (flags.from !== undefined) {
    const from = await readFromInput(deps, flags.from);
    sources.push({ label: `--from ${from.label}`, values: from.parsed.values });
    for (const k of from.parsed.keys) if (!keyLines.has(k.normalized)) keyLines.set(k.normalized, `"${k.key}" in ${from.label}${k.line ? ` (line ${k.line})` : ''}`);
  }
  sources.push({ label: 'options', values: optionValues(flags, flush.normalizeKey) });
  return { sources, keyLines };
}

/** A decision or other note records the commit it was true at (drift); a session summary is a record, not a claim (and loads no history). */
async function verifiedFor(template: string, root: string, env: Record<string, string | undefined>): Promise<{ verified?: string }> {
  if (template === 'session') return {};
  const { headCommit } = await import('./foreground.js');
  const head = headCommit(root, env);
  return head ? { verified: head } : {};
}

/** A transcript's fields (marked lines first, then what its format's extractor reads) and the files it wrote. */
async function readTranscriptFacts(flush: FlushModule, path: string, name: string, cwd: string): Promise<import('./extract.js').TranscriptFields & { transcript: import('../../kernel/transcript/types.js').Transcript }> {
  const { transcript, format } = await readTranscriptWith(readTranscriptText(path, name));
  return { ...flush.transcriptFields(transcript, format, { cwd }), transcript };
}

const AGENTS: Partial<Record<string, string>> = { claude: 'claude-code', codex: 'codex', gemini: 'gemini-cli' };

/** What a transcript says of its session, for the summary's frontmatter: the agent, the model, start and end. */
export function sessionMeta(transcript: import('../../kernel/transcript/types.js').Transcript): SessionMeta {
  return { agent: AGENTS[transcript.format], model: transcript.model, started: transcript.startedAt, ended: transcript.endedAt };
}

/** Gather, the transcript: its fields, the files it shows changed, what it says of the session; a warning when it cannot be read. */
async function gatherTranscript(deps: FlushDeps, flush: FlushModule, scope: FlushScope, warnings: string[]) {
  if (scope.transcript === undefined) return undefined;
  const path = transcriptPath(scope.transcript, scope.cwd, deps.home);
  try {
    const { files, request, requests, transcript, unreadable, ...values } = await readTranscriptFacts(flush, path, scope.transcript, scope.cwd);
    if (unreadable) warnings.push(`the transcript ${scope.transcript}: ${unreadable}`);
    scope.read = transcript;
    const session = sessionMeta(transcript);
    return { values, files, request, requests, session, sessionId: transcript.sessionId };
  } catch (err) {
    const why = err instanceof MemctxError ? err.message : (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    warnings.push(`cannot read the transcript ${scope.transcript} (${why}); the summary holds only what the other inputs gave`);
    return undefined;
  }
}

/**
 * Gather, git: with --git (or --since) the work tree's changes (and the files changed since the
 * revision); in hook mode inside a work tree, the session's commits and the work tree, each call
 * bounded (a git that fails or hangs only costs Changed Files its git part, with a warning).
 */
async function gatherGit(deps: FlushDeps, flags: FlushOptions, scope: FlushScope, started: string | undefined, warnings: string[], notes: string[]): Promise<{ root: string; changes: GitChange[] } | undefined> {
  if (flags.git || flags.since !== undefined) {
    // the work tree's top, asked of git once for both calls
    const root = gitRoot(scope.cwd, deps.env);
    let since = flags.since;
    if (since === undefined) {
      const base = defaultSince(root, deps.env);
      if (base) notes.push(`--git: files changed since the merge base with ${base.branch} (${base.rev.slice(0, 7)}) and in the work tree; --since REV for another base`);
      since = base?.rev;
    }
    return gitChanges(root, since, deps.env);
  }
  if (!scope.hookEvent) return undefined;
  const found = sessionGitChanges(scope.cwd, started, deps.env, HOOK_GIT_TIMEOUT_MS);
  if (found?.problems.length) warnings.push(`git: ${found.problems.join('; ')}; Changed Files holds what the transcript shows`);
  return found;
}

/** The gather step: every input read, merged in order (--from, options, --transcript, git), changed files once each. */
async function gather(deps: FlushDeps, flush: FlushModule, flags: FlushOptions, scope: FlushScope, warnings: string[], notes: string[]): Promise<Gathered> {
  const { sources, keyLines } = await gatherGiven(deps, flush, flags);
  const read = await gatherTranscript(deps, flush, scope, warnings);
  if (read) sources.push({ label: '--transcript', values: read.values });
  if (read?.sessionId && !scope.sessionId) scope.sessionId = read.sessionId;
  const git = await gatherGit(deps, flags, scope, read?.session.started, warnings, notes);
  const where: ChangedScope = { base: git?.root ?? scope.cwd, cwd: scope.cwd, root: scope.root, home: deps.home };
  const entries = flush.uniqueEntries([
    ...flush.givenEntries(sources.flatMap((source) => source.values.changedFiles ?? []), where, (abs) => isFile(abs) && (deps.mayRead?.(abs) ?? true)),
    ...flush.transcriptEntries(read?.files ?? [], where),
    ...(git ? flush.gitEntries(git.changes, git.root, where) : []),
  ]);
  const merged = flush.mergeSources(sources);
  if (!merged.goal?.length && read?.request) merged.goal = read.requests ?? [read.request];
  if (entries.length) merged.changedFiles = await changedLines(flush, entries, (abs) => inProject(where.base, abs) && (deps.mayRead?.(abs) ?? true));
  else delete merged.changedFiles;
  const sourcesOf = (key: string) => {
    const labels = sources.filter((source) => source.values[key]?.length).map((source) => source.label);
    if (key === 'changedFiles' && git?.changes.length) labels.push('--git');
    return labels;
  };
  return { merged, sourcesOf, keyLines, session: read?.session };
}

/** The merge step: the template's field values; warnings for ignored keys; errors for missing placeholders or nothing at all. */
function merge(flush: FlushModule, template: Template, gathered: Gathered, warnings: string[], check?: (values: FieldValues) => void): FieldValues {
  const resolved = flush.resolveFields(template, gathered.merged, gathered.sourcesOf);
  check?.(resolved.values);
  const fieldNames = template.fields.map((f) => f.key).join(', ');
  for (const { key, sources } of resolved.unused) {
    const where = gathered.keyLines.get(key) ?? `"${key}"${sources.length ? ` from ${sources.join(', ')}` : ''}`;
    warnings.push(`ignored ${where}: the ${template.name} template has no such field (its fields: ${fieldNames})`);
  }
  if (resolved.missing.length) {
    const [key, ...more] = resolved.missing;
    throw new MemctxError(`template ${template.origin}: placeholder {{${key}}} has no value${more.length ? ` (nor ${more.map((k) => `{{${k}}}`).join(', ')})` : ''}`, {
      file: template.origin,
      line: template.placeholders.find((p) => p.key === key)?.line,
      hint: `give it with --field ${key}=VALUE or a "${key}" key in --from`,
    });
  }
  if (!Object.values(resolved.values).some((items) => items.length)) {
    throw new NothingToRecord('nothing to record: every field is empty', { hint: 'give at least --goal, or --from FILE, --transcript FILE or --git' }, [...warnings]);
  }
  return resolved.values;
}

/** The write step: the planned file under the memory lock (a fresh name, or the hook's earlier file for this session), then re-index. */
async function write(flush: FlushModule, input: PlanInput, plan: FlushPlan, scope: FlushScope, notes: string[], warnings: string[]): Promise<{ path: string; text: string; replaced: boolean }> {
  if (!existsSync(scope.root)) throw new MemctxError(`memory directory ${scope.root} does not exist`, { hint: 'run `memctx init`' });
  // Unlike the other writes, a flush is written even when MEMORY.md's markers are broken: the
  // session would be lost otherwise. The index problem is reported instead.
  // The hook never waits past its budget: a summary it cannot write in time is kept in
  // the state folder's pending/ and written by the next memctx write.
  const hookWait = scope.lockWaitMs;
  const wait = hookWait === undefined ? {} : { maxWaitMs: hookWait };
  return withMemoryLock(scope.root, async () => {
    const warn = (message: string) => warnings.push(message);
    await foldPendingFlushes(scope.root, warn);
    const id = flush.usesId(input.template) ? nextDecisionId(scope.root, (plan.frontmatter.updated as string).slice(0, 10)) : undefined;
    const previous = (scope.hookEvent || scope.agentSummary) && scope.sessionId ? findHookSessionFile(scope.root, input.template.dir, scope.sessionId) : undefined;
    const old = previous ? readMemoryFile(scope.root, previous) : undefined;
    const created = old && !isProblem(old) ? old.created : undefined;
    const text = id || created ? flush.renderFlushFile({ ...input, id, created }, plan.values).text : plan.text;
    const path = previous ?? freePath(scope.root, flush.plannedPath(plan, id));
    await writeMemoryText(scope.root, path, text);
    try {
      const index = await rebuildIndex(scope.root, {}, warn);
      if (index.problems.length) notes.push(`MEMORY.md rebuilt; ${index.problems.length} memory file(s) could not be read (run \`memctx index\` to see them)`);
    } catch (err) {
      if (!(err instanceof MemctxError)) throw err;
      notes.push(`${path} written, but MEMORY.md was not rebuilt: ${err.message}${err.line ? ` (line ${err.line})` : ''}; fix it, then run \`memctx index\``);
    }
    return { path, text, replaced: previous !== undefined };
  }, wait).catch(async (err: unknown) => {
    if (!(hookWait !== undefined && err instanceof LockBusy)) throw err;
    const kept = await savePendingFlush(scope.root, { path: flush.plannedPath(plan), text: plan.text, dir: input.template.dir, sessionId: scope.sessionId }, input.now);
    notes.push(`the memory directory stayed locked by another memctx process for ${hookWait / 1000} s; the summary is kept in ${kept} and written by the next memctx write`);
    return { path: kept, text: plan.text, replaced: false };
  });
}

/** The render step: plan the file within the token budget (or take --summarize-with's answer), with notes and warnings. */
async function render(deps: FlushDeps, flush: FlushModule, flags: FlushOptions, scope: FlushScope, input: PlanInput, warnings: string[], notes: string[], agent?: { rules: AgentSummaryModule; target: number; max: number }): Promise<FlushPlan> {
  let plan = flush.planFlush(input);
  if (agent && plan.overMax) {
    const { rules, target, max } = agent;
    throw new FlushRefused(warnings, rules.overMaxMessage(plan.values, plan.tokens, max, target, (text) => input.counter.count(text)), { exitCode: EXIT_PROBLEMS, hint: agentSummaryRules(target, max) });
  }
  // In a hook the agent is asked in the background, after this summary is written (summary-job.ts).
  if (flags.summarizeWith && scope.read && !scope.hookEvent) {
    const { askSummarizer } = await import('./foreground.js');
    const asked = await askSummarizer(deps, flush, flags.summarizeWith, scope.read, input, flags.summarizeTimeout);
    if (asked.plan) {
      plan = asked.plan;
      input.values = asked.plan.values;
      notes.push(`summary written by --summarize-with ${flags.summarizeWith}`);
    } else warnings.push(`--summarize-with ${flags.summarizeWith}: ${asked.why}; kept the deterministic summary`);
  }
  const { template } = input;
  for (const s of plan.summarized) notes.push(`${flush.headingOf(template, s.field)}: a ${s.total}-line block stored as a summary (${s.omitted} lines left out)`);
  if (plan.cuts.length) notes.push(`shortened from ${plan.originalTokens} to ${plan.tokens} tokens (over the ${plan.max} maximum; target ${plan.target}): ${plan.cutLines.join('; ')}`);
  if (plan.empty.length) warnings.push(`written as "none recorded": ${plan.empty.join(', ')}. Was there truly nothing? Give them with ${hintOptions(template, plan.empty)}`);
  if (input.strict && plan.overMax) {
    throw new FlushRefused(warnings, `the summary is ${plan.tokens} tokens, over the maximum of ${plan.max}; --strict: nothing written`, { exitCode: EXIT_PROBLEMS, hint: 'shorten the fields, raise --max, or drop --strict to let memctx shorten it' });
  }
  if (plan.overMax) warnings.push(`still ${plan.tokens} tokens after shortening, over the maximum of ${plan.max}`);
  return plan;
}

/** --dry-run: the file a write would make, and where. */
async function preview(flush: FlushModule, input: PlanInput, plan: FlushPlan, scope: FlushScope): Promise<{ path: string; text: string }> {
  const id = flush.usesId(input.template) ? nextDecisionId(scope.root, (plan.frontmatter.updated as string).slice(0, 10)) : undefined;
  const text = id ? flush.renderFlushFile({ ...input, id }, plan.values).text : plan.text;
  return { path: freePath(scope.root, flush.plannedPath(plan, id)), text };
}

/** The session file's own frontmatter: the hook event, who wrote it, and which part memctx revised. */
function frontmatterExtra(scope: FlushScope, agent: AgentSummaryModule | undefined, kept: { frontmatter: Record<string, string> } | undefined, writtenWith?: string): Record<string, string> {
  return {
    ...(scope.hookEvent ? { hook_event: scope.hookEvent } : {}),
    ...(agent ? agent.WRITTEN_BY_AGENT : {}),
    ...(agent && writtenWith ? { written_with: writtenWith } : {}),
    ...kept?.frontmatter,
  };
}

/** The agent's summary refused (nothing written) when a field is missing, an item is a pasted block, or a next step is already done. */
function checkAgentSummary(agent: AgentSummaryModule, values: FieldValues, warnings: string[], { target, max }: FlushOptions): void {
  const missing = agent.missingAgentFields(values);
  if (missing.length) throw new FlushRefused(warnings, agent.missingFieldsMessage(missing), { hint: agentSummaryRules(target, max) });
  const wrong = agent.longItemMessage(values) ?? agent.contradictionMessage(values);
  if (wrong) throw new FlushRefused(warnings, wrong, { exitCode: EXIT_PROBLEMS, hint: agentSummaryRules(target, max) });
}

/** The agent's summary refused (nothing written) when it holds a possible secret. */
async function refuseSecrets(agent: AgentSummaryModule, values: FieldValues, warnings: string[], { target, max }: FlushOptions): Promise<void> {
  const secret = await agent.secretMessage(values, await import('./foreground.js'));
  if (secret) throw new FlushRefused(warnings, secret, { exitCode: EXIT_PROBLEMS, hint: agentSummaryRules(target, max) });
}

/** One flush: gather → merge → render → write (or, with --dry-run, preview). */
async function flushOnce(deps: FlushDeps, flags: FlushOptions, scope: FlushScope): Promise<FlushOutcome> {
  const { target, max, encoding } = flags;
  const warnings: string[] = [];
  const notes: string[] = [];
  const template = await loadTemplate(flushCore, scope.root, flags.template);
  const agent = flags.agentSummary ? await agentRules() : undefined;
  if (agent && template.name !== 'session') throw new MemctxError(`--agent-summary writes the session template, not ${template.name}`, { hint: 'drop --template, or drop --agent-summary' });
  const checkAgent = agent && ((values: FieldValues) => checkAgentSummary(agent, values, warnings, flags));
  // A summary is a short text: counted without compiling the split pattern (long ones still use the bulk counter).
  const counter = smallTextCounter(encoding);
  // At SessionEnd/PreCompact a summary the agent wrote for this session is kept and completed.
  const kept = scope.hookEvent && scope.sessionId && !agent ? await keptAgentSummary(deps, flushCore, template, scope) : undefined;
  if (kept) notes.push(...kept.notes);
  const gathered = kept ? undefined : await gather(deps, flushCore, flags, scope, warnings, notes);
  const values = kept?.values ?? merge(flushCore, template, gathered!, warnings, checkAgent);
  if (agent) await refuseSecrets(agent, values, warnings, flags);
  const extra = { ...frontmatterExtra(scope, agent, kept, flags.writtenWith), ...(await verifiedFor(template.name, scope.root, deps.env)) };
  const input: PlanInput = { template, values, now: deps.now(), counter, target, max, strict: flags.strict || Boolean(agent), sessionId: scope.sessionId, session: gathered?.session ?? flags.session, extra };
  const plan = await render(deps, flushCore, flags, scope, input, warnings, notes, agent && { rules: agent, target, max });
  if (flags.dryRun) return { plan, ...(await preview(flushCore, input, plan, scope)), written: false, replaced: false, warnings, notes };
  const written = await write(flushCore, input, plan, scope, notes, warnings);
  // A transcript can carry credentials into the session file: say where (not in the 1.5 s hook path).
  if (!scope.hookEvent) {
    const { secretWarnings } = await import('./foreground.js');
    warnings.push(...(await secretWarnings([{ path: written.path, text: written.text }])).map((w) => w.replace('in the output', 'in the session file')));
  }
  return { plan, ...written, written: true, warnings, notes };
}

const OPTION_OF: Record<string, string> = { goal: '--goal', progress: '--progress', decisions: '--decision', changedFiles: '--changed/--git', blockers: '--blocker', nextSteps: '--next' };

function hintOptions(template: Template, headings: string[]): string {
  const keys = template.fields.filter((f) => headings.includes(f.heading)).map((f) => f.key);
  return `${keys.map((k) => OPTION_OF[k] ?? `--field ${k}=…`).join(', ')}, or in --from`;
}

/** What the hook run is called in its log line, and where the log is. */
interface HookLog {
  label: string;
  root?: string;
}

/**
 * The hook's never-fail policy, in one place: run `body`; whatever it throws is written to
 * the flush log (the state folder) (when a memory directory was found) and returned, never thrown.
 */
async function neverFail(deps: FlushDeps, log: HookLog, body: () => Promise<HookResult>): Promise<HookResult> {
  try {
    return await body();
  } catch (err) {
    const e = err as MemctxError;
    const message = hookFailureText(e);
    const logged = logHookFailure(log.root, log.label, message, deps.now());
    return { error: { message, stack: e.stack }, logged, root: log.root };
  }
}

/** The hook's label in the flush log: `SessionEnd(exit) session=…`. */
function hookLabel(hook: { event?: string; reason?: string; sessionId?: string }): string {
  return `${hook.event ?? 'hook'}${hook.reason ? `(${hook.reason})` : ''}${hook.sessionId ? ` session=${hook.sessionId}` : ''}`;
}

/** Whether any field (or `--from`) was given on the command line. */
function fieldsGiven(flags: FlushOptions): boolean {
  return [flags.from, flags.goal, flags.progress, flags.decision, flags.changed, flags.blocker, flags.next, flags.field].some((v) => (Array.isArray(v) ? v.length > 0 : v !== undefined));
}

/** The flush log's line for a flush: what was written where, its size, its notes and warnings. */
function outcomeLine(outcome: FlushOutcome): string {
  const extra = [...outcome.notes, ...outcome.warnings.map((w) => `warning: ${w}`)];
  return `${outcome.written ? (outcome.replaced ? 'updated' : 'wrote') : 'would write'} ${outcome.path} (${outcome.plan.tokens} tokens)${extra.length ? `; ${extra.join('; ')}` : ''}`;
}

/**
 * `--hook`: Claude Code runs this at SessionEnd or PreCompact. It must never fail the session: every
 * problem is written to the flush log (the state folder) (and stderr) and the exit code is 0.
 */
export async function flushHook(flags: FlushOptions, deps: FlushDeps): Promise<HookResult> {
  const find = (cwd: string) => findMemoryDir({ dir: deps.dir, claude: deps.claude, cwd, env: deps.env, home: deps.home, confined: true });
  const locate = (cwd: string) => {
    try {
      return find(cwd);
    } catch {
      return undefined;
    }
  };
  const log: HookLog = { label: 'hook', root: locate(deps.cwd) };
  const waits = deps.hookWaits ?? HOOK_WAITS;
  return neverFail(deps, log, async () => {
    // The headless agent of a background summary runs with its hooks off; should one run anyway, it records nothing.
    if (deps.env[SUMMARY_JOB_ENV]) return { skipped: `inside memctx's background summary (${SUMMARY_JOB_ENV} is set), nothing to record`, logged: false, root: log.root };
    if (flags.from === '-') throw new MemctxError('--hook reads the hook JSON on stdin, so --from - cannot be used with it');
    if (deps.stdinIsTTY) throw new MemctxError('--hook reads the hook JSON on stdin, and stdin is a terminal');
    const hook = parseHookInput(await deps.readStdin(1024 * 1024, waits.stdinMs));
    log.label = hookLabel(hook);
    const cwd = resolve(deps.cwd, hook.cwd ?? '.');
    // The hook's cwd decides; when it has no memory directory, this throws the error that says so.
    const root = locate(cwd) ?? find(cwd);
    log.root = root;
    const append = (what: string) => appendFlushLog(root, `${isoTimestamp(deps.now())} ${log.label} ${what}`);
    const skip = (skipped: string): HookResult => ({ skipped, logged: append(`skipped: ${skipped}`), root });
    const transcript = hook.transcriptPath ?? flags.transcript;
    // The transcript as the flush reads it: from the hook's cwd, `~` expanded.
    const unwritten = transcript !== undefined && !existsSync(transcriptPath(transcript, cwd, deps.home));
    // Claude Code ends sessions that did nothing (`claude mcp list`) too, naming a transcript it never
    // wrote: a skip, not an error, whatever the work tree holds.
    if (unwritten && !fieldsGiven(flags)) {
      return skip('empty session, nothing to record (no transcript was written)');
    }
    let outcome: FlushOutcome;
    try {
      outcome = await flushOnce({ ...deps, cwd }, flags, { root, cwd, transcript, sessionId: hook.sessionId ?? flags.sessionId, hookEvent: hook.event ?? 'hook', lockWaitMs: waits.lockMs });
    } catch (err) {
      // Every field empty is an empty session too; a transcript that is there but unreadable stays an error.
      if (!(err instanceof NothingToRecord && (err.warnings.length === 0 || unwritten))) throw err;
      return skip(`empty session, nothing to record${unwritten ? ' (no transcript was written)' : ''}`);
    }
    const job = flags.summarizeWith && isSummaryAgent(flags.summarizeWith) ? await askInBackground(deps, flags, { agent: flags.summarizeWith, root, cwd, transcript, event: hook.event, sessionId: outcome.plan.frontmatter.session_id, label: log.label }, outcome) : undefined;
    if (job) outcome.notes.push(job);
    const logged = append(outcomeLine(outcome));
    return { outcome, logged, root };
  });
}

interface BackgroundAsk {
  agent: SummaryAgent;
  root: string;
  cwd: string;
  transcript?: string;
  event?: string;
  sessionId: unknown;
  label: string;
}

/**
 * At SessionEnd, after the offline summary is written: start the background job that asks the agent
 * (summary-job.ts). Not when the agent wrote its own summary, the summary went to pending/, or a job
 * for this session is still running. A note for the log line, or undefined when nothing was started.
 */
async function askInBackground(deps: FlushDeps, flags: FlushOptions, ask: BackgroundAsk, outcome: FlushOutcome): Promise<string | undefined> {
  const { agent, root, sessionId } = ask;
  if (ask.event !== 'SessionEnd' || typeof sessionId !== 'string' || ask.transcript === undefined || !outcome.written) return undefined;
  if (outcome.plan.frontmatter.written_by !== undefined || !isInside(root, resolve(root, outcome.path))) return undefined;
  const now = deps.now();
  const { runningSummaryJob, startSummaryJob } = await import('./summary-job.js');
  const running = runningSummaryJob(root, sessionId, now);
  if (running) return `a background summary by ${running.agent} for this session is still running; none started`;
  const job = {
    agent,
    root,
    cwd: ask.cwd,
    transcript: transcriptPath(ask.transcript, ask.cwd, deps.home),
    sessionId,
    path: outcome.path,
    // node:crypto on use: a hook that starts no background job does without it
    sha256: process.getBuiltinModule('node:crypto').createHash('sha256').update(outcome.text).digest('hex'),
    target: flags.target,
    max: flags.max,
    encoding: flags.encoding,
    timeoutSeconds: flags.summarizeTimeout ?? DEFAULT_SUMMARIZE_TIMEOUT,
    label: ask.label,
    started: now.toISOString(),
  };
  try {
    const saved = await startSummaryJob(job, { env: deps.env, startWorker: deps.startSummaryWorker });
    return saved ? `asked ${agent} for the summary in the background (at most ${job.timeoutSeconds} s)` : `no state folder to keep the background job in; ${agent} was not asked`;
  } catch (err) {
    // the offline summary is written: a job that cannot start is a note on its line, not a failed hook
    return `${agent} was not asked: the background job could not start (${err instanceof MemctxError ? err.message : (err as Error).message})`;
  }
}
