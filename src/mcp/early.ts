/**
 * `memctx mcp`'s first answers, before the MCP SDK loads (its modules are most of the server's start-up).
 * A well-formed `initialize` and `tools/list` (and a request the SDK has no handler for) are answered here, with the bytes the SDK's Server writes for
 * them (test/mcp/early.test.ts drives both); every other line waits, in order, for the SDK. Once it is
 * loaded, `handOver` feeds the SDK's stdio transport the `initialize` again (so the Server holds the client's
 * capabilities and version; its answer, sent already, is dropped by the caller), then every line kept and
 * every chunk after, unchanged.
 */
import type { Tool as ListedTool } from '@modelcontextprotocol/sdk/types.js';
import { VERSION } from '../kernel/version.js';

const { readFileSync } = process.getBuiltinModule('node:fs');

export const SERVER_INFO = { name: 'memctx', version: VERSION };
export const CAPABILITIES = { tools: {}, resources: {} };

/** What the client shows the model about the server as a whole (each tool's description is in its tool.ts). */
export const INSTRUCTIONS = [
  "This server holds the project's long-lived memory: small Markdown files with YAML frontmatter under /memories,",
  'indexed in MEMORY.md (resource memctx://memory/MEMORY.md). Read MEMORY.md or `memory view /memories` at the start of',
  'a task; `search` or `pack` to find what matters. Save durable facts (decisions and why, how the project works,',
  'user preferences, open issues) with the `memory` tool; never save secrets, credentials or one-off chatter.',
].join(' ');

/** The protocol versions the SDK's Server accepts, its latest first (its SUPPORTED_PROTOCOL_VERSIONS; the test holds them equal). */
export const PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'];

/** tools/list's answer as the build wrote it (scripts/build-info.mjs), or undefined where it did not (the sources under test). */
export function builtToolsList(): ListedTool[] | undefined {
  try {
    return JSON.parse(readFileSync(new URL('./tools-list.json', import.meta.url), 'utf8')) as ListedTool[];
  } catch {
    return undefined;
  }
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const only = (value: Json, keys: readonly string[]) => Object.keys(value).every((key) => keys.includes(key));
const optionalString = (value: unknown) => value === undefined || typeof value === 'string';

/** A request as the SDK reads one (JSON-RPC 2.0, nothing else at the top), with this method. */
function requestOf(message: unknown, method: string): { id: string | number; params: unknown } | undefined {
  if (!isObject(message) || !only(message, ['jsonrpc', 'id', 'method', 'params']) || message.jsonrpc !== '2.0' || message.method !== method) return undefined;
  const { id, params } = message;
  return typeof id === 'string' || Number.isSafeInteger(id) ? { id: id as string | number, params } : undefined;
}

/** Objects all the way down, booleans only at the two places the SDK's ClientCapabilities schema takes one. */
function plainCapabilities(value: unknown, path = ''): boolean {
  if (path === '.roots.listChanged' || path === '.elicitation.form.applyDefaults') return typeof value === 'boolean';
  return isObject(value) && Object.entries(value).every(([key, inner]) => plainCapabilities(inner, `${path}.${key}`));
}

/** initialize's params that the SDK's schema surely takes (anything less plain is left to the SDK). */
function plainInitialize(params: unknown): params is { protocolVersion: string } {
  if (!isObject(params) || !only(params, ['protocolVersion', 'capabilities', 'clientInfo']) || typeof params.protocolVersion !== 'string') return false;
  const info = params.clientInfo;
  if (!isObject(info) || typeof info.name !== 'string' || typeof info.version !== 'string' || info.icons !== undefined) return false;
  return optionalString(info.title) && optionalString(info.websiteUrl) && optionalString(info.description) && plainCapabilities(params.capabilities);
}

/** A request's `_meta` that asks at most for progress (Codex sends one with tools/list); the SDK's answer does not change. */
function progressOnly(meta: unknown): boolean {
  if (meta === undefined) return true;
  if (!isObject(meta) || !only(meta, ['progressToken'])) return false;
  const token = meta.progressToken;
  return token === undefined || typeof token === 'string' || Number.isSafeInteger(token);
}

/** The SDK's answer to a request, as its stdio transport writes it. */
const answer = (id: string | number, result: unknown) => `${JSON.stringify({ result, jsonrpc: '2.0', id })}\n`;

/** The initialize answer the SDK's Server gives: the client's protocol version if it speaks it, else its latest. */
export function initializeAnswer(message: unknown): { id: string | number; text: string } | undefined {
  const request = requestOf(message, 'initialize');
  if (request === undefined || !plainInitialize(request.params)) return undefined;
  const asked = request.params.protocolVersion;
  const protocolVersion = PROTOCOL_VERSIONS.includes(asked) ? asked : PROTOCOL_VERSIONS[0];
  return { id: request.id, text: answer(request.id, { protocolVersion, capabilities: CAPABILITIES, serverInfo: SERVER_INFO, instructions: INSTRUCTIONS }) };
}

/** Methods the SDK's Server has no handler for, which it answers "Method not found" (Claude Code opens with server/discover). */
const UNHANDLED_METHODS = ['server/discover'];

/** The SDK's "Method not found" answer to a plain request for one of UNHANDLED_METHODS. */
export function unhandledAnswer(message: unknown): string | undefined {
  const method = isObject(message) ? message.method : undefined;
  if (typeof method !== 'string' || !UNHANDLED_METHODS.includes(method)) return undefined;
  const request = requestOf(message, method);
  const plain = request && (request.params === undefined || (isObject(request.params) && request.params._meta === undefined));
  return plain ? `${JSON.stringify({ jsonrpc: '2.0', id: request.id, error: { code: -32601, message: 'Method not found' } })}\n` : undefined;
}

/** The tools/list answer, from the built list (a cursor or a progress token changes nothing: the list is one page). */
export function toolsListAnswer(message: unknown, tools: () => ListedTool[] | undefined): string | undefined {
  const request = requestOf(message, 'tools/list');
  if (request === undefined) return undefined;
  const { params } = request;
  if (params !== undefined && !(isObject(params) && only(params, ['cursor', '_meta']) && optionalString(params.cursor) && progressOnly(params._meta))) return undefined;
  const list = tools();
  return list && answer(request.id, { tools: list });
}

/** A line's JSON, or undefined when it is none (each line is parsed once, then offered to each answer). */
export function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

/** `notifications/initialized`, which the SDK answers with nothing (it is passed on after the initialize). */
function initializedNotification(message: unknown): boolean {
  return isObject(message) && only(message, ['jsonrpc', 'method']) && message.jsonrpc === '2.0' && message.method === 'notifications/initialized';
}

/** Longer than any initialize or tools/list: a line still open past this is the SDK's to read. */
const EARLY_LINE_BYTES = 64 * 1024;

export interface EarlyOptions {
  /** Writes an answer to the client (stdout). */
  write: (text: string) => unknown;
  /** tools/list's answer, if there is one built. */
  tools: () => ListedTool[] | undefined;
  /** Called when the SDK is needed: a line it must answer, or tools/list answered (the caller starts it once). */
  needed: () => void;
}

/** Reads stdin's chunks: answers what it can until the SDK is needed, then keeps the rest for it. */
export class EarlyAnswers {
  /** The id of the initialize answered here. */
  initialized: string | number | undefined;
  /** The SDK must read what is kept (a line it has to answer, or one too long to be answered here). */
  ended = false;
  private pending: Buffer = Buffer.alloc(0);
  private kept: Buffer[] = [];
  /** The initialize answered here and the notifications after it, fed to the SDK first. */
  private replay: string[] = [];
  private feed: ((chunk: Buffer) => void) | undefined;

  constructor(private readonly options: EarlyOptions) {}

  /** stdin's 'data' listener. */
  read = (chunk: Buffer): void => {
    if (this.feed) this.feed(chunk);
    else if (this.ended) this.kept.push(chunk);
    else this.lines(this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk);
  };

  private lines(bytes: Buffer): void {
    let start = 0;
    for (let end = bytes.indexOf(10); end !== -1; end = bytes.indexOf(10, start)) {
      if (!this.early(bytes.toString('utf8', start, end).replace(/\r$/, ''))) return this.end(bytes.subarray(start));
      start = end + 1;
    }
    this.pending = bytes.subarray(start);
    if (this.pending.length > EARLY_LINE_BYTES) this.end(this.pending);
  }

  /** Answer one line here, or keep it silently for the SDK; false when the SDK must read it. */
  private early(line: string): boolean {
    const message = parseLine(line);
    if (this.initialized !== undefined && initializedNotification(message)) {
      this.replay.push(line);
      return true;
    }
    const init = this.initialized === undefined ? initializeAnswer(message) : undefined;
    if (init) {
      this.initialized = init.id;
      this.replay.push(line);
      this.options.write(init.text);
      return true;
    }
    const unhandled = unhandledAnswer(message);
    if (unhandled !== undefined) {
      this.options.write(unhandled);
      return true;
    }
    const list = toolsListAnswer(message, this.options.tools);
    if (list === undefined) return false;
    this.options.write(list);
    this.options.needed();
    return true;
  }

  private end(rest: Buffer): void {
    this.ended = true;
    this.pending = Buffer.alloc(0);
    if (rest.length) this.kept.push(rest);
    this.options.needed();
  }

  /**
   * Feed the SDK's transport: the initialize answered here, then (once `answered`: the caller dropped the
   * SDK's answer to it) the notifications and every byte kept, in order, and from then on each chunk as it comes.
   */
  async handOver(feed: (chunk: Buffer) => void, answered: Promise<void>): Promise<void> {
    const [first] = this.replay;
    if (first !== undefined) {
      feed(Buffer.from(`${first}\n`));
      await answered;
    }
    // Read now: a notification may have come while the SDK answered.
    const held = [...this.replay.slice(1).map((line) => Buffer.from(`${line}\n`)), ...this.kept, this.pending];
    this.kept = [];
    this.pending = Buffer.alloc(0);
    for (const chunk of held) if (chunk.length) feed(chunk);
    this.feed = feed;
  }
}
