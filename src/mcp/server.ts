/**
 * memctx as an MCP server: the commands' tools (`commands/<name>/tool.ts`, one module each: name, schemas, annotations,
 * handler) and MEMORY.md as a resource. Each tool's `inputSchema` and `outputSchema` are derived from its
 * valibot schema (the command's `schema.ts`), and its arguments are checked by that same schema. It returns result
 * objects; it prints nothing itself (stdout belongs to the protocol).
 */
import type { CallToolResult, Tool as ListedTool } from '@modelcontextprotocol/sdk/types.js';
import { CallToolRequestSchema, ErrorCode, ListResourcesRequestSchema, ListToolsRequestSchema, McpError, NO_ELICITATION, ReadResourceRequestSchema, Server } from './sdk.js';
import type * as v from 'valibot';
import { memoryErrorText } from '../kernel/memory-errors.js';
import type { Io } from '../kernel/io.js';
import { builtToolsList, CAPABILITIES, INSTRUCTIONS, SERVER_INFO } from './early.js';
import type { Tool } from '../kernel/mcp/tool.js';
import { readIndexFile } from '../kernel/memindex/file.js';
import { redactSecrets } from '../kernel/lint/secrets.js';
import { answerBytes, MAX_ANSWER_BYTES, tooLarge } from '../kernel/mcp/limits.js';

/** A tool error as the model reads it (tool.ts's textResult, without loading the tools' schemas). */
const toolError = (text: string): CallToolResult => ({ content: [{ type: 'text', text }], isError: true });

let loaded: Promise<readonly Tool[]> | undefined;
/** The tools, one module each, loaded on the first call (or list, outside the bundle): `initialize` needs none of them (nor their schemas). */
export function loadTools(): Promise<readonly Tool[]> {
  loaded ??= import('./tool-list.js').then((m) => m.TOOLS);
  return loaded;
}

export interface ServerOptions {
  /** The memory directory, absolute. */
  root: string;
  /** Why there is no memory directory: the server still starts, and every tool call answers this error. */
  missing?: Error;
  io: Pick<Io, 'cwd' | 'env' | 'home' | 'now'>;
}

const INDEX_URI = 'memctx://memory/MEMORY.md';

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

/**
 * What tools/list answers: each tool's name, texts, schemas and annotations, as the build wrote it
 * (scripts/build-info.mjs, from the same tools); the sources under test compute it (the JSON Schema converter loads).
 */
export async function listTools(): Promise<ListedTool[]> {
  return builtToolsList() ?? computeToolsList();
}

/** tools/list's answer computed from the tools' schemas. */
export async function computeToolsList(): Promise<ListedTool[]> {
  const [{ toJsonSchema }, tools] = await Promise.all([import('@valibot/to-json-schema'), loadTools()]);
  /** A schema as the JSON Schema the client sees: an object, with the draft-07 `$schema` key left out. */
  const jsonSchemaOf = (schema: v.GenericSchema): ListedTool['inputSchema'] => {
    const { $schema: _drop, ...rest } = toJsonSchema(schema, { errorMode: 'ignore' }) as Record<string, unknown>;
    return { type: 'object', ...rest };
  };
  return tools.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: jsonSchemaOf(tool.input),
    ...(tool.output ? { outputSchema: jsonSchemaOf(tool.output) } : {}),
    annotations: { title: tool.title, ...tool.annotations },
  }));
}

export function createServer(options: ServerOptions, inFlight = new InFlight()): Server {
  const { root, io } = options;
  const server = new Server(SERVER_INFO, { capabilities: CAPABILITIES, instructions: INSTRUCTIONS, jsonSchemaValidator: NO_ELICITATION });

  // Tracked like tool calls, so a client that closes stdin right after asking still gets the answer.
  server.setRequestHandler(ListToolsRequestSchema, () => inFlight.track(listTools().then((tools) => ({ tools }))));
  server.setRequestHandler(CallToolRequestSchema, (request) =>
    inFlight.serial(async (): Promise<CallToolResult> => {
      try {
        const tools = await loadTools();
        const tool = tools.find((t) => t.name === request.params.name);
        if (tool === undefined) return toolError(`unknown tool ${JSON.stringify(request.params.name)}; the tools are ${tools.map((t) => t.name).join(', ')}`);
        if (options.missing) throw options.missing;
        // The tool checks its arguments once, with its own schema (as the library and the CLI check theirs).
        const result = await tool.run(request.params.arguments ?? {}, { root, io });
        // Each tool caps its lists; whatever still does not fit is refused, never sent (nor cut silently).
        const bytes = answerBytes(result);
        return bytes > MAX_ANSWER_BYTES ? toolError(tooLarge(tool.name, bytes)) : result;
      } catch (err) {
        return toolError(memoryErrorText(err, options.missing ? undefined : root));
      }
    }),
  );

  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: [{ uri: INDEX_URI, name: 'memory-index', title: 'MEMORY.md', description: 'The memory index: one line per memory file, grouped; read it first.', mimeType: 'text/markdown' }],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => inFlight.track(readResource(request.params.uri)));
  const readResource = async (uri: string) => {
    if (uri !== INDEX_URI) throw new McpError(ErrorCode.InvalidParams, `unknown resource ${uri}; the one resource is ${INDEX_URI}`);
    const text = await redactSecrets((options.missing ? undefined : readIndexFile(root)) ?? '');
    return { contents: [{ uri: INDEX_URI, mimeType: 'text/markdown', text }] };
  };
  return server;
}
