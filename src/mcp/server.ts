/**
 * memctx as an MCP server: the `memory` tool (Anthropic's memory-tool commands over /memories),
 * `search`, `pack`, `status`, `flush` and `lint`, and MEMORY.md as a resource. It returns result
 * objects; it prints nothing itself (stdout belongs to the protocol).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation';
import { z } from 'zod';
import { MEMORY_COMMANDS, memoryErrorText, runMemoryCommand, type MemoryCommand } from '../actions/memory-tool.js';
import type { Io } from '../cli/context.js';
import { VERSION } from '../version.js';
import { confineTranscript, insideProject } from './confine.js';
import { TOOL_TEXT } from './descriptions.js';

export interface ServerOptions {
  /** The memory directory, absolute. */
  root: string;
  /** Why there is no memory directory: the server still starts, and every tool call answers this error. */
  missing?: Error;
  io: Pick<Io, 'cwd' | 'env' | 'home' | 'now'>;
}

export const INDEX_URI = 'memctx://memory/MEMORY.md';

/** What each memory command needs besides `command`. */
const REQUIRED: Record<MemoryCommand['command'], string[]> = {
  view: ['path'],
  create: ['path', 'file_text'],
  str_replace: ['path', 'old_str', 'new_str'],
  insert: ['path', 'insert_line', 'insert_text'],
  delete: ['path'],
  rename: ['old_path', 'new_path'],
};

function text(value: string, isError = false): CallToolResult {
  return { content: [{ type: 'text', text: value }], ...(isError ? { isError: true } : {}) };
}

function structured(value: Record<string, unknown>, summary: string): CallToolResult {
  return { content: [{ type: 'text', text: summary }], structuredContent: value };
}

/** Runs tool calls one at a time in arrival order, and tracks them so the server can let them finish before it exits. */
export class InFlight {
  private readonly pending = new Set<Promise<unknown>>();
  private queue: Promise<unknown> = Promise.resolve();
  /** Run fn after every call before it has finished (a model's parallel calls see each other's writes in order). */
  serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => undefined);
    return this.track(next);
  }
  track<T>(promise: Promise<T>): Promise<T> {
    this.pending.add(promise);
    void promise.finally(() => this.pending.delete(promise)).catch(() => undefined);
    return promise;
  }
  /** Resolves once nothing is in flight, answers sent included (they start a turn after their call ends). */
  async settle(): Promise<void> {
    for (let quiet = 0; quiet < 3; ) {
      if (this.pending.size > 0) {
        quiet = 0;
        await Promise.allSettled([...this.pending]);
      } else {
        quiet++;
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}

let lazyAjv: AjvJsonSchemaValidator | undefined;
/** The SDK's default schema validator, built on first use: memctx never asks the client for input, and building Ajv costs start-up time. */
const lazyValidator: jsonSchemaValidator = {
  getValidator(schema) {
    lazyAjv ??= new AjvJsonSchemaValidator();
    return lazyAjv.getValidator(schema);
  },
};

export function createServer(options: ServerOptions, inFlight = new InFlight()): McpServer {
  const { root, io } = options;
  const server = new McpServer({ name: 'memctx', version: VERSION }, { instructions: TOOL_TEXT.instructions, jsonSchemaValidator: lazyValidator });
  const guard = (fn: () => Promise<CallToolResult>): Promise<CallToolResult> =>
    inFlight.serial(() => (options.missing ? Promise.reject(options.missing) : fn()).catch((err: unknown) => text(memoryErrorText(err), true)));

  server.registerTool(
    'memory',
    {
      title: 'Memory files',
      description: TOOL_TEXT.memory,
      inputSchema: {
        command: z.enum(MEMORY_COMMANDS as [MemoryCommand['command'], ...MemoryCommand['command'][]]).describe('view, create, str_replace, insert, delete or rename'),
        path: z.string().optional().describe('a path under /memories, e.g. /memories/project_auth.md (all commands but rename)'),
        view_range: z.array(z.number().int()).length(2).optional().describe('view only: [first line, last line], 1-based; last -1 for the end of the file'),
        file_text: z.string().optional().describe('create only: the whole text of the new file'),
        old_str: z.string().optional().describe('str_replace only: the exact text to replace; it must occur exactly once'),
        new_str: z.string().optional().describe('str_replace only: the replacement text'),
        insert_line: z.number().int().optional().describe('insert only: 0 inserts before line 1, N inserts after line N'),
        insert_text: z.string().optional().describe('insert only: the text to insert'),
        old_path: z.string().optional().describe('rename only: the current path under /memories'),
        new_path: z.string().optional().describe('rename only: the new path under /memories'),
      },
      annotations: { destructiveHint: true, openWorldHint: false },
    },
    (args) =>
      guard(async () => {
        const absent = REQUIRED[args.command].filter((key) => (args as Record<string, unknown>)[key] === undefined);
        if (absent.length) return text(`${args.command} needs ${absent.join(', ')}; it takes ${REQUIRED[args.command].join(', ')}${args.command === 'view' ? ' and optionally view_range' : ''}`, true);
        return text(await runMemoryCommand(root, args as MemoryCommand, { now: io.now }));
      }),
  );

  server.registerTool(
    'search',
    {
      title: 'Search memory',
      description: TOOL_TEXT.search,
      inputSchema: {
        query: z.string().min(1).describe('words to look for'),
        limit: z.number().int().min(1).max(100).optional().describe('at most this many hits (default 10)'),
        type: z.string().optional().describe('only this type: user, feedback, project, reference or other'),
        kind: z.string().optional().describe('only this kind: decision, issue, state, learning, session or note'),
        tag: z.string().optional().describe('only files with this tag'),
        min_importance: z.number().int().min(1).max(10).optional().describe('only files with importance at least this (1-10)'),
        since: z.string().optional().describe('only files updated since a date (2026-11-01) or a period back from now (12h, 7d, 2w)'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guard(async () => {
        const { search } = await import('../actions/search.js');
        const { hits } = await search(
          { root, query: args.query, limit: args.limit ?? 10, type: args.type, kind: args.kind, tag: args.tag, minImportance: args.min_importance === undefined ? undefined : String(args.min_importance), since: args.since },
          { now: io.now },
        );
        const lines = hits.map((h) => `/memories/${h.path}\t${h.score.toFixed(2)}\t${h.description || h.name}`);
        // The hits as their JSON document has them (no undefined fields).
        return structured({ hits: JSON.parse(JSON.stringify(hits)) as unknown[] }, hits.length ? lines.join('\n') : `no memory file matches "${args.query}"`);
      }),
  );

  server.registerTool(
    'pack',
    {
      title: 'Pack memory for a task',
      description: TOOL_TEXT.pack,
      inputSchema: {
        task: z.string().min(1).optional().describe('what the next work is about; matching files rank higher'),
        budget: z.number().int().positive().optional().describe('token cap on the bundle, e.g. 8000 (default: the profile\'s, else 25000)'),
        profile: z.enum(['rehydrate', 'handoff-complete', 'handoff-specialist', 'handoff-continuation', 'handoff-emergency']).optional().describe('a preset: budget and the files loaded first'),
        focus: z.array(z.string()).optional().describe('memory files, or paths memory files mention, to treat as active'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guard(async () => {
        const { PROFILES } = await import('../pack/profiles.js');
        const { DEFAULT_BUDGET } = await import('../pack/budget.js');
        const profile = args.profile ? PROFILES[args.profile] : undefined;
        if (profile?.taskOnly && !args.task && !args.focus?.length) return text(`profile ${profile.name} packs only what the task reaches; give task or focus`, true);
        const { pack } = await import('../actions/pack.js');
        const result = await pack(
          { root, budget: args.budget ?? profile?.budget ?? DEFAULT_BUDGET, task: args.task, focus: args.focus, profile: profile?.name, format: 'markdown', encoding: 'o200k_base' },
          { now: io.now, env: io.env },
        );
        const { text: bundle, ...report } = result;
        return { content: [{ type: 'text', text: bundle }], structuredContent: report as unknown as Record<string, unknown> };
      }),
  );

  server.registerTool(
    'status',
    {
      title: 'Context window status',
      description: TOOL_TEXT.status,
      inputSchema: {
        transcript: z.string().min(1).optional().describe('a transcript file (Claude Code or Codex JSONL, OpenAI JSON, text); default: the latest Claude Code session of the working directory'),
        model: z.string().optional().describe('take the context window from this model id'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guard(async () => {
        const { status } = await import('../actions/status.js');
        const transcript = args.transcript === undefined ? undefined : confineTranscript(args.transcript, io);
        const { report } = await status(transcript, { model: args.model }, { ...io, readStdinBytes: async () => Buffer.alloc(0) });
        return structured(report as unknown as Record<string, unknown>, `${report.percent}% of ${report.window} tokens (${report.level}): ${report.advice}`);
      }),
  );

  server.registerTool(
    'flush',
    {
      title: 'Save a session summary',
      description: TOOL_TEXT.flush,
      inputSchema: {
        goal: z.string().optional().describe('what this session set out to do'),
        progress: z.array(z.string()).optional().describe('what was done'),
        decisions: z.array(z.string()).optional().describe('decisions made, each with its reason'),
        changed_files: z.array(z.string()).optional().describe('files changed (repository paths)'),
        blockers: z.array(z.string()).optional().describe('what is stuck or unresolved'),
        next_steps: z.array(z.string()).optional().describe('what to do next'),
        session_id: z.string().optional().describe("this session's id, when the request to save the summary gave one (one file per session)"),
        dry_run: z.boolean().optional().describe('return the file without writing it'),
      },
      annotations: { destructiveHint: false, openWorldHint: false },
    },
    (args) =>
      guard(async () => {
        const { flush } = await import('../actions/flush.js');
        const outcome = await flush(
          { template: 'session', goal: args.goal, progress: args.progress, decision: args.decisions, changed: args.changed_files, blocker: args.blockers, next: args.next_steps, sessionId: args.session_id, agentSummary: true, target: '500', max: '650', encoding: 'o200k_base', dryRun: args.dry_run },
          { ...io, root, readStdin: async () => '', mayRead: (abs) => insideProject(abs, io) },
        );
        const { path, written, replaced, text: fileText, warnings, notes } = outcome;
        const shown = `/memories/${path}`;
        return structured({ path: shown, written, replaced, text: fileText, warnings, notes }, written ? `saved ${shown}${warnings.length ? ` (${warnings.join('; ')})` : ''}` : fileText);
      }),
  );

  server.registerTool(
    'lint',
    {
      title: 'Check memory hygiene',
      description: TOOL_TEXT.lint,
      inputSchema: {},
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    () =>
      guard(async () => {
        const { lintSetup, lintMemory } = await import('../actions/lint.js');
        const { result } = await lintMemory(lintSetup({ memoryDir: root }, io), {}, io);
        const findings = result.findings.map((f) => ({ file: `/memories/${f.file}`, line: f.line ?? null, rule: f.ruleId, severity: f.severity, message: f.message }));
        const summary = findings.length ? findings.map((f) => `${f.file}${f.line ? `:${f.line}` : ''}: ${f.severity} ${f.message} (${f.rule})`).join('\n') : 'no problems';
        return structured({ findings, errorCount: result.errorCount, warningCount: result.warningCount }, summary);
      }),
  );

  server.registerResource(
    'memory-index',
    INDEX_URI,
    { title: 'MEMORY.md', description: 'The memory index: one line per memory file, grouped; read it first.', mimeType: 'text/markdown' },
    async (uri) => {
      const { readIndexFile } = await import('../store/index-file.js');
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: (options.missing ? undefined : readIndexFile(root)) ?? '' }] };
    },
  );
  return server;
}
