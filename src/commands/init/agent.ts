/**
 * `init --agent`: a marked memory section in the agent's instruction file and, for Claude Code, the
 * status line, hooks and MCP server merged into its settings. Every target is read and checked
 * before anything is written; a target that is malformed, read-only or a symlink stops the whole
 * plan with its name. Running it twice changes nothing.
 */
import { accessSync, constants, lstatSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parse as parseToml, stringify as stringifyToml } from 'smol-toml';
import { MemctxError } from '../../kernel/errors.js';
import { writeFileAtomic } from '../../kernel/store/write.js';
import { isRecord } from '../../kernel/values.js';
import { findLauncher, type Launcher } from '../../kernel/hooks/launcher.js';
import { duplicateJsonKey } from '../../kernel/json.js';
import { isInside } from '../../kernel/store/paths.js';
import { realPathOf } from '../../kernel/hooks/git.js';
import { git, GitError } from '../../kernel/sources/git.js';
import { SESSION_START_COMMAND } from '../../kernel/bundle/startup.js';
import { SUMMARY_AGENTS, type SummaryAgent } from '../../kernel/summary/summarizers.js';

export type Agent = 'claude' | 'codex' | 'cursor';

const BEGIN = '<!-- memctx:begin -->';
const END = '<!-- memctx:end -->';

export interface AgentChange {
  /** Relative to the project root, `/` separators. */
  file: string;
  action: 'create' | 'update' | 'unchanged';
  /** What changes, in words: "memory section", "hooks.SessionStart", … */
  parts: string[];
  before?: string;
  after: string;
}

export interface AgentPlan {
  agent: Agent;
  root: string;
  changes: AgentChange[];
  warnings: string[];
  /** How the written commands start memctx, and why (for claude). */
  launcher?: Launcher;
}

const STATUS_LINE = { type: 'command', command: 'memctx status --statusline', padding: 0 };
const HOOKS: Record<string, { matcher?: string; hooks: Array<{ type: 'command'; command: string; timeout?: number }> }> = {
  SessionStart: { hooks: [{ type: 'command', command: SESSION_START_COMMAND }] },
  SessionEnd: { hooks: [{ type: 'command', command: 'memctx flush --hook', timeout: 10 }] },
  PreCompact: { matcher: 'auto|manual', hooks: [{ type: 'command', command: 'memctx flush --hook', timeout: 10 }] },
  // Past 80% of the context (once per crossing), the agent is asked to write its own summary.
  Stop: { hooks: [{ type: 'command', command: 'memctx checkpoint', timeout: 30 }] },
};

/**
 * Codex's longest SessionEnd hook timeout (seconds): a longer one is cut to it, with the warning
 * "clamping SessionEnd hook timeout to 3s" on every start. flush --hook fits in it.
 */
const CODEX_SESSION_END_TIMEOUT = 3;
/** Codex (0.169) reads the same hook shape from .codex/hooks.json: the Stop checkpoint and the flush. */
const CODEX_HOOKS: typeof HOOKS = {
  Stop: HOOKS.Stop,
  SessionEnd: { hooks: [{ ...HOOKS.SessionEnd.hooks[0], timeout: CODEX_SESSION_END_TIMEOUT }] },
  PreCompact: { hooks: HOOKS.PreCompact.hooks },
};
/** Timeouts an agent cuts (event → seconds): memctx's own hooks written earlier with more are lowered. */
const CODEX_TIMEOUT_CAPS: Record<string, number> = { SessionEnd: CODEX_SESSION_END_TIMEOUT };
const MCP_SERVER = { type: 'stdio', command: 'memctx', args: ['mcp'] };

/** The memory section for this agent; `memoryDir` is relative to the project root. */
function memorySection(agent: Agent, memoryDir: string): string {
  const index = `${memoryDir}/MEMORY.md`;
  const tools =
    agent === 'claude'
      ? 'Use the `memctx` MCP tools: `memory` (view, create, str_replace, insert, delete, rename under `/memories`), `search`, `pack`, `lint`.'
      : 'Use the `memctx` command: `memctx search WORDS`, `memctx show PATH`, `memctx add PATH --name … --description … --type project`, `memctx edit PATH --old … --new …`, or the `memctx mcp` server where the client has MCP.';
  return [
    BEGIN,
    '## Project memory (memctx)',
    '',
    `This project keeps long-lived memory in \`${memoryDir}/\`: small Markdown files with YAML frontmatter, indexed in \`${index}\`.`,
    '',
    `- At the start of a task, read \`${index}\` and open the files that matter.`,
    '- A memory is a hint, not the truth: when a bundle or `memctx lint` marks one as drifted (the code it names changed since it was verified), check it against the code before acting on it, then record the check with `memctx verify PATH` (MCP tool `verify`).',
    `- ${tools}`,
    '- Save what the next session needs: decisions and why, how things work here, user preferences, open issues. One topic per file, a one-line description.',
    '- Before the context fills up or the session ends, save a session summary (`memctx flush`).',
    '- Never save secrets, credentials, tokens or personal data, and no transcripts or one-off chatter.',
    `- \`${index}\` is generated between its markers: change the memory files, not the index; \`memctx lint\` checks them.`,
    END,
  ].join('\n');
}

function refuse(file: string, why: string, hint: string): never {
  throw new MemctxError(`${why}; nothing was changed`, { file, hint });
}

/**
 * The target's text, or undefined when it does not exist; refuses symlinks, a path whose real
 * location leaves the repository (a symlinked `.claude/` or `.cursor/` folder) and files it cannot write.
 */
function readTarget(root: string, abs: string): string | undefined {
  if (!isInside(realPathOf(root), realPathOf(abs))) {
    refuse(abs, `leads outside the repository (its real path is ${realPathOf(abs)}, through a symbolic link)`, 'replace the linked folder with a real one inside the repository, or add the memctx settings by hand');
  }
  const stat = lstatSync(abs, { throwIfNoEntry: false });
  if (stat?.isSymbolicLink()) refuse(abs, 'is a symbolic link; memctx will not write through it', 'replace the link with a regular file, or add the memctx settings by hand');
  if (stat && !stat.isFile()) refuse(abs, 'is not a regular file', 'move it out of the way');
  let dir = dirname(abs);
  while (!lstatSync(dir, { throwIfNoEntry: false })) dir = dirname(dir);
  // Write bits too, since root passes every access check.
  const target = stat ? abs : dir;
  let writable = ((stat ?? lstatSync(dir)).mode & 0o222) !== 0;
  try {
    accessSync(target, constants.W_OK);
  } catch {
    writable = false;
  }
  if (!writable) refuse(target, 'is read-only', 'make it writable, then run init --agent again');
  return stat ? readFileSync(abs, 'utf8') : undefined;
}

/** Put the section into Markdown text: replace the marked one, else append. */
function withSection(file: string, text: string | undefined, section: string): string {
  if (text === undefined || text.trim() === '') return `${section}\n`;
  const begins = text.split(BEGIN).length - 1;
  const ends = text.split(END).length - 1;
  if (begins === 0 && ends === 0) return `${text.replace(/\s*$/, '')}\n\n${section}\n`;
  const start = text.indexOf(BEGIN);
  const stop = text.indexOf(END);
  if (begins !== 1 || ends !== 1 || stop < start) {
    refuse(file, `has ${begins} "${BEGIN}" and ${ends} "${END}" markers in the wrong number or order`, 'leave exactly one begin marker before one end marker, or remove both');
  }
  return text.slice(0, start) + section + text.slice(stop + END.length);
}

function parseJsonObject(file: string, text: string | undefined): Record<string, unknown> {
  if (text === undefined || text.trim() === '') return {};
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    refuse(file, `is not valid JSON (${(err as Error).message})`, 'fix the JSON syntax first');
  }
  if (!isRecord(data)) refuse(file, 'is not a JSON object', 'it should hold an object such as { "hooks": {} }');
  const duplicate = duplicateJsonKey(text);
  if (duplicate) refuse(`${file}:${duplicate.line}`, `holds the key "${duplicate.key}" twice in one object (JSON keeps only the last, so merging would drop the first)`, `merge the two "${duplicate.key}" entries into one, then run init --agent again`);
  return data;
}

/** How the written commands start memctx: the launcher, and `--dir` when the memory is not at `<project>/.memory`. */
interface Start {
  shell: string;
  mcp: { command: string; args: string[] };
}

function startFor(launcher: Launcher, project: string, memoryDir: string, projectRef: string): Start {
  const rel = relative(project, memoryDir).split('\\').join('/');
  if (rel === '.memory') return { shell: launcher.shell, mcp: launcher.mcp };
  const inside = rel !== '' && !rel.startsWith('..');
  const shellDir = inside ? `${projectRef}${rel}` : `'${memoryDir.replace(/'/g, `'\\''`)}'`;
  return { shell: `${launcher.shell} --dir ${shellDir}`, mcp: { command: launcher.mcp.command, args: [...launcher.mcp.args, '--dir', inside ? rel : memoryDir] } };
}

/** The command with `memctx` replaced by how this project starts it. */
function started(command: string, start: Start): string {
  return command.replace(/^memctx /, `${start.shell} `);
}

/** A command init wrote, with any launcher (bare, the project's bin, with or without --dir): rewritten on a new run. */
function isOurs(command: unknown, tail: string): boolean {
  if (typeof command !== 'string' || !command.endsWith(` ${tail}`)) return false;
  const head = command.slice(0, -tail.length - 1);
  return /^(?:memctx|npx --no-install memctx|"\$CLAUDE_PROJECT_DIR"\/\S*node_modules\/\.bin\/memctx)(?: --dir (?:"\$CLAUDE_PROJECT_DIR"\/\S+|'[^']*'|\S+))?$/.test(head);
}

function mentionsCommand(groups: unknown[], command: string): boolean {
  return groups.some((g) => isRecord(g) && Array.isArray(g.hooks) && g.hooks.some((h) => isRecord(h) && typeof h.command === 'string' && h.command.includes(command)));
}

/** Rewrite hook commands init wrote earlier (any of `tails`) with another launcher or form, and their timeouts above `cap`; true when one changed. */
function restart(groups: unknown[], tails: string[], command: string, cap?: number): boolean {
  let changed = false;
  for (const g of groups) {
    if (!isRecord(g) || !Array.isArray(g.hooks)) continue;
    for (const h of g.hooks) {
      if (!isRecord(h) || !tails.some((tail) => isOurs(h.command, tail))) continue;
      const overCap = cap !== undefined && typeof h.timeout === 'number' && h.timeout > cap;
      if (h.command === command && !overCap) continue;
      h.command = command;
      if (overCap) h.timeout = cap;
      changed = true;
    }
  }
  return changed;
}

const FLUSH_TAIL = 'flush --hook';
/** The SessionEnd flush as init may have written it: plain, or asking an agent in the background. */
const SESSION_END_TAILS = [FLUSH_TAIL, ...SUMMARY_AGENTS.map((agent) => `${FLUSH_TAIL} --summarize-with ${agent}`)];

/** The agent a SessionEnd flush init wrote earlier asks in the background, if any (kept when init runs again without --summarize-with). */
function askedAgent(data: Record<string, unknown>): SummaryAgent | undefined {
  const groups = isRecord(data.hooks) && Array.isArray(data.hooks.SessionEnd) ? (data.hooks.SessionEnd as unknown[]) : [];
  for (const g of groups) {
    for (const h of isRecord(g) && Array.isArray(g.hooks) ? (g.hooks as unknown[]) : []) {
      const agent = SUMMARY_AGENTS.find((a) => isRecord(h) && isOurs(h.command, `${FLUSH_TAIL} --summarize-with ${a}`));
      if (agent) return agent;
    }
  }
  return undefined;
}

/** The hooks with the SessionEnd flush asking `agent` (given, or kept from an earlier run) in the background. */
function withSummary(hooks: typeof HOOKS, data: Record<string, unknown>, given?: SummaryAgent): typeof HOOKS {
  const agent = given ?? askedAgent(data);
  if (!agent) return hooks;
  const [hook] = hooks.SessionEnd.hooks;
  return { ...hooks, SessionEnd: { hooks: [{ ...hook, command: `${hook.command} --summarize-with ${agent}` }] } };
}

/** Merge the status line and hooks into Claude Code's settings; existing keys are kept. */
function mergeSettings(start: Start, summarizeWith?: SummaryAgent) {
  return (file: string, data: Record<string, unknown>, warnings: string[]): string[] => {
    const parts: string[] = [];
    const statusLine = { ...STATUS_LINE, command: started(STATUS_LINE.command, start) };
    const statusTail = STATUS_LINE.command.slice('memctx '.length);
    if (data.statusLine === undefined) {
      data.statusLine = statusLine;
      parts.push('statusLine');
    } else if (isRecord(data.statusLine) && isOurs(data.statusLine.command, statusTail)) {
      if (data.statusLine.command !== statusLine.command) {
        data.statusLine.command = statusLine.command;
        parts.push('statusLine');
      }
    } else if (!(isRecord(data.statusLine) && typeof data.statusLine.command === 'string' && data.statusLine.command.includes('memctx status --statusline'))) {
      warnings.push(`${file} already has a statusLine; left as it is (memctx's is \`${statusLine.command}\`)`);
    }
    return [...parts, ...mergeHooks(file, data, withSummary(HOOKS, data, summarizeWith), start)];
  };
}

/** Merge hook groups into `data.hooks`: an event's group is added when none there runs its command yet, and ours are restarted with this launcher. */
function mergeHooks(file: string, data: Record<string, unknown>, wanted: typeof HOOKS, start: Start, caps: Record<string, number> = {}): string[] {
  const parts: string[] = [];
  if (data.hooks !== undefined && !isRecord(data.hooks)) refuse(file, '"hooks" is not an object', 'fix "hooks" to map event names to lists');
  const hooks = (data.hooks ?? {});
  for (const [event, group] of Object.entries(wanted)) {
    const list = hooks[event];
    if (list !== undefined && !Array.isArray(list)) refuse(file, `"hooks.${event}" is not a list`, `make hooks.${event} a list of matcher groups`);
    const groups = (list ?? []) as unknown[];
    const tail = group.hooks[0].command.slice('memctx '.length);
    const command = started(group.hooks[0].command, start);
    const tails = event === 'SessionEnd' ? [...new Set([tail, ...SESSION_END_TAILS])] : [tail];
    if (restart(groups, tails, command, caps[event])) parts.push(`hooks.${event}`);
    else if (!mentionsCommand(groups, event === 'SessionEnd' ? `memctx ${FLUSH_TAIL}` : group.hooks[0].command)) {
      hooks[event] = [...groups, { ...group, hooks: group.hooks.map((h) => ({ ...h, command: started(h.command, start) })) }];
      parts.push(`hooks.${event}`);
    }
  }
  if (parts.length) data.hooks = hooks;
  return parts;
}

function isOurServer(server: unknown): boolean {
  if (!isRecord(server) || !Array.isArray(server.args)) return false;
  const words = [server.command, ...(server.args as unknown[])].map(String).join(' ');
  return /^(?:memctx|npx --no-install(?: --prefix \S+)? memctx)(?: --dir \S+)? mcp$/.test(words);
}

/** The MCP server entry; Cursor's mcp.json has no `type`. */
function mcpServer(start: Start, typed = true): Record<string, unknown> {
  const { type, ...rest } = { ...MCP_SERVER, command: start.mcp.command, args: [...start.mcp.args, ...MCP_SERVER.args] };
  return typed ? { type, ...rest } : rest;
}

function mergeMcp(start: Start, typed = true) {
  return (file: string, data: Record<string, unknown>, warnings: string[]): string[] => {
    if (data.mcpServers !== undefined && !isRecord(data.mcpServers)) refuse(file, '"mcpServers" is not an object', 'make mcpServers an object of server name to settings');
    const servers = (data.mcpServers ?? {});
    const server = mcpServer(start, typed);
    if (servers.memctx !== undefined) {
      if (!isOurServer(servers.memctx)) warnings.push(`${file} already has an MCP server named memctx; left as it is`);
      else if (JSON.stringify(servers.memctx) !== JSON.stringify(server)) {
        data.mcpServers = { ...servers, memctx: server };
        return ['mcpServers.memctx'];
      }
      return [];
    }
    data.mcpServers = { ...servers, memctx: server };
    return ['mcpServers.memctx'];
  };
}

/**
 * Approve the project's MCP server for this user: Claude Code keeps a server from .mcp.json
 * "pending approval" until it is approved, and reads the approval only from the user's own
 * (uncommitted) settings.local.json, not from the shared settings.json.
 */
function approveMcp(file: string, data: Record<string, unknown>): string[] {
  const list = data.enabledMcpjsonServers;
  if (list !== undefined && !Array.isArray(list)) refuse(file, '"enabledMcpjsonServers" is not a list', 'make it a list of server names, e.g. ["memctx"]');
  if (data.enableAllProjectMcpServers === true || (list ?? []).includes('memctx')) return [];
  data.enabledMcpjsonServers = [...((list ?? []) as unknown[]), 'memctx'];
  return ['enabledMcpjsonServers'];
}

function jsonChange(root: string, rel: string, merge: (file: string, data: Record<string, unknown>, warnings: string[]) => string[], warnings: string[]): AgentChange {
  const abs = join(root, rel);
  const before = readTarget(root, abs);
  const data = parseJsonObject(abs, before);
  const parts = merge(abs, data, warnings);
  const after = parts.length ? `${JSON.stringify(data, null, 2)}\n` : (before ?? '');
  return { file: rel, action: parts.length === 0 ? 'unchanged' : before === undefined ? 'create' : 'update', parts, before, after };
}

function markdownChange(root: string, rel: string, section: string, wrap?: (body: string) => string): AgentChange {
  const abs = join(root, rel);
  const before = readTarget(root, abs);
  const after = before === undefined && wrap ? wrap(`${section}\n`) : withSection(abs, before, section);
  return { file: rel, action: after === before ? 'unchanged' : before === undefined ? 'create' : 'update', parts: after === before ? [] : ['memory section'], before, after };
}

/**
 * Codex's MCP server in config.toml: the table is appended, so the user's text and comments stay as
 * they are; a `memctx` server that is already there is left alone.
 */
function tomlChange(root: string, rel: string, abs: string, start: Start, warnings: string[]): AgentChange {
  // The user's own Codex config (--user-config) is outside the repository: only its own folder is checked.
  const before = readTarget(isInside(root, abs) ? root : dirname(abs), abs);
  let data: Record<string, unknown>;
  try {
    data = parseToml(before ?? '');
  } catch (err) {
    const e = err as Error & { line?: number };
    throw new MemctxError(`is not valid TOML (${e.message.split('\n')[0]}); nothing was changed`, { file: abs, line: e.line, hint: 'fix the TOML syntax first' });
  }
  const servers = data.mcp_servers;
  const server = mcpServer(start, false);
  if (isRecord(servers) && servers.memctx !== undefined) {
    const same = JSON.stringify(servers.memctx) === JSON.stringify(server);
    if (!same) warnings.push(`${abs} already has an MCP server named memctx; left as it is (memctx's would be \`${[server.command, ...(server.args as string[])].join(' ')}\`)`);
    return { file: rel, action: 'unchanged', parts: [], before, after: before ?? '' };
  }
  const block = stringifyToml({ mcp_servers: { memctx: server } });
  const after = before === undefined || before.trim() === '' ? `${block}\n` : `${before.replace(/\s*$/, '')}\n\n${block}\n`;
  return { file: rel, action: before === undefined ? 'create' : 'update', parts: ['mcp_servers.memctx'], before, after };
}

/**
 * A personal file init writes, added to the repository's .gitignore so `git add -A` leaves it out;
 * nothing when git already ignores it (.gitignore, .git/info/exclude, core.excludesFile) or outside git.
 */
function ignoreChange(root: string, rel: string, env: Record<string, string | undefined>): AgentChange | undefined {
  try {
    git(['check-ignore', '-q', '--', rel], root, env);
    return undefined; // ignored already
  } catch (err) {
    if (!(err instanceof GitError) || err.status !== 1) return undefined; // not a git repository
  }
  const before = readTarget(root, join(root, '.gitignore'));
  const after = `${before ?? ''}${before === undefined || before === '' || before.endsWith('\n') ? '' : '\n'}/${rel}\n`;
  return { file: '.gitignore', action: before === undefined ? 'create' : 'update', parts: [`/${rel} (your own settings, kept out of git)`], before, after };
}

const CURSOR_HEADER = (body: string) => `---\ndescription: How this project's memory works (memctx)\nalwaysApply: true\n---\n\n${body}`;

/** Everything init --agent would change, checked; writes nothing. */
export interface AgentOptions {
  /** Codex: write the MCP server to the user's config ($CODEX_HOME or ~/.codex) instead of the project's. */
  userConfig?: boolean;
  /** At SessionEnd, ask this agent's headless mode for the summary in the background (`flush --hook --summarize-with`). */
  summarizeWith?: SummaryAgent;
  home?: string;
}

export function planAgent(agent: Agent, root: string, memoryDir: string, env: Record<string, string | undefined> = {}, options: AgentOptions = {}): AgentPlan {
  const rel = relative(root, memoryDir).split('\\').join('/') || '.';
  const section = memorySection(agent, rel.startsWith('..') ? memoryDir : rel);
  const warnings: string[] = [];
  const changes: AgentChange[] = [];
  const launcher = findLauncher(root, memoryDir, env);
  // Claude Code runs hooks and the status line with CLAUDE_PROJECT_DIR set (quoted, a path with spaces works).
  const start = startFor(launcher, root, memoryDir, '"$CLAUDE_PROJECT_DIR"/');
  if (agent === 'claude') {
    changes.push(markdownChange(root, 'CLAUDE.md', section));
    changes.push(jsonChange(root, '.claude/settings.json', mergeSettings(start, options.summarizeWith), warnings));
    changes.push(jsonChange(root, '.mcp.json', mergeMcp(start), warnings));
    changes.push(jsonChange(root, '.claude/settings.local.json', approveMcp, warnings));
    const ignore = ignoreChange(root, '.claude/settings.local.json', env);
    if (ignore) changes.push(ignore);
  } else if (agent === 'codex') {
    // Codex sets no CLAUDE_PROJECT_DIR: its hooks run in the project, where npx finds the project's bin.
    const shell = launcher.kind === 'local' ? [launcher.mcp.command, ...launcher.mcp.args].join(' ') : launcher.shell;
    const hookStart = startFor({ ...launcher, shell }, root, memoryDir, '');
    changes.push(markdownChange(root, 'AGENTS.md', section));
    changes.push(jsonChange(root, '.codex/hooks.json', (file, data) => mergeHooks(file, data, withSummary(CODEX_HOOKS, data, options.summarizeWith), hookStart, CODEX_TIMEOUT_CAPS), warnings));
    // Codex reads a project's .codex/config.toml once the project is trusted; the user's own only on request.
    const userDir = env.CODEX_HOME || join(options.home ?? env.HOME ?? '', '.codex');
    const abs = options.userConfig ? join(userDir, 'config.toml') : join(root, '.codex/config.toml');
    changes.push(tomlChange(root, relative(root, abs).split('\\').join('/'), abs, start, warnings));
  } else {
    changes.push(markdownChange(root, '.cursor/rules/memctx.mdc', section, CURSOR_HEADER));
    changes.push(jsonChange(root, '.cursor/mcp.json', mergeMcp(start, false), warnings));
  }
  return { agent, root, changes, warnings, launcher };
}

export async function applyAgentPlan(plan: AgentPlan): Promise<void> {
  for (const change of plan.changes) {
    const abs = resolve(plan.root, change.file);
    // A change outside the repository is the user's own Codex config (--user-config), asked for by name.
    if (change.action !== 'unchanged') await writeFileAtomic(abs, change.after, isInside(plan.root, abs) ? { inside: plan.root } : {});
  }
}
