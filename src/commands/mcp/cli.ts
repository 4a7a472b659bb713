import type { Command } from 'commander';
import { EXIT_OK, EXIT_USAGE, MemctxError } from '../../kernel/errors.js';

/** The largest JSON-RPC message the server reads (the SDK's default is 10 MiB). */
const MAX_MESSAGE_BYTES = 32 * 1024 * 1024;
import type { Context } from '../../kernel/cli/context.js';
import type { Runner } from '../../kernel/cli/run.js';
import { LineBuffer } from './line-buffer.js';
import { realpathSync } from 'node:fs';
import { EventEmitter } from 'node:events';
import type { Readable } from 'node:stream';
import { processOutput } from '../../kernel/cli/context.js';
import { builtToolsList, EarlyAnswers } from '../../mcp/early.js';
import type { Server } from '../../mcp/sdk.js';
import type { InFlight, ServerOptions } from '../../mcp/server.js';

export function register(program: Command, run: Runner): void {
  program
    .command('mcp')
    .description('serve the memory directory to an agent over MCP (stdio): the memory tool, search, pack, status, flush, lint')
    .action(run(runMcp));
}

/** Serve until the client closes stdin or the process is told to stop; calls in flight finish first. */
export async function runMcp(ctx: Context): Promise<number> {
  // Without a memory directory the server still starts, so the agent gets a tool error naming the fix.
  let root = '';
  let missing: Error | undefined;
  try {
    root = realpathSync(ctx.memoryDir({ confined: true }));
  } catch (err) {
    if (!(err instanceof MemctxError)) throw err;
    missing = err;
  }
  let stop: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => {
    stop = resolve;
    process.stdin.once('end', () => resolve());
    process.once('SIGTERM', () => resolve());
    process.once('SIGINT', () => resolve());
  });
  let serving: Promise<Served> | undefined;
  const startServing = () => {
    // A server that cannot start ends the wait at once: the await below raises its error.
    if (serving === undefined) (serving = serve(early, { root, missing, io: ctx.io }, stop)).catch(() => stop());
    return serving;
  };
  // initialize and tools/list are answered before the SDK's modules (most of the start-up) load: mcp/early.ts.
  const early = new EarlyAnswers({ write: processOutput(1, () => process.stdout).write, tools: builtToolsList, needed: () => void startServing() });
  process.stdin.on('data', early.read);
  // A stdin error ends nothing by itself, as under the SDK's transport (whose error went unanswered).
  process.stdin.on('error', () => undefined);
  await closed;
  // What arrived before the end is answered, as it is while serving.
  if (early.ended) void startServing();
  const served = await serving;
  await served?.inFlight.settle();
  await served?.server.close().catch(() => undefined);
  process.stdin.pause();
  if (served?.fatal() !== undefined) {
    ctx.io.stderr.write(`${served.fatal()}\n`);
    return EXIT_USAGE;
  }
  return EXIT_OK;
}

interface Served {
  server: Server;
  inFlight: InFlight;
  fatal: () => string | undefined;
}

/**
 * The SDK's server on its stdio transport, fed by `early` (the lines it kept, then stdin as it comes) and
 * writing to stdout; the answer to the initialize early gave already is dropped.
 */
async function serve(early: EarlyAnswers, options: ServerOptions, stop: () => void): Promise<Served> {
  const [{ createServer, InFlight }, { StdioServerTransport, deserializeMessage }] = await Promise.all([import('../../mcp/server.js'), import('../../mcp/sdk.js')]);
  const inFlight = new InFlight();
  const server = createServer(options, inFlight);
  server.onclose = () => stop();
  const input = Object.assign(new EventEmitter(), { pause: () => input });
  // Room for a message well past the 1 MiB a memory file may hold, so an oversized write gets a tool
  // error naming the limit; a message past this one ends the server with one line on stderr and exit 2.
  const transport = new StdioServerTransport(input as unknown as Readable, process.stdout);
  // The SDK's buffer copies all it holds on every chunk; ours joins once per line (test/mcp/oversized.test.ts).
  (transport as unknown as { _readBuffer: unknown })._readBuffer = new LineBuffer(MAX_MESSAGE_BYTES, deserializeMessage);
  let fatal: string | undefined;
  await server.connect(transport);
  const send = transport.send.bind(transport);
  let drop = early.initialized;
  let answered: () => void = () => undefined;
  const initialize = new Promise<void>((resolve) => (answered = resolve));
  transport.send = (message) => {
    if (drop !== undefined && !('method' in message) && 'id' in message && message.id === drop) {
      drop = undefined;
      answered();
      return Promise.resolve();
    }
    return inFlight.track(send(message));
  };
  // A line that is not JSON-RPC gets the protocol's parse error, and the server carries on.
  server.onerror = (err: Error) => {
    if (err.name === 'SyntaxError' || err.name === 'ZodError') void transport.send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: `Parse error: ${err.message.split('\n')[0]}` } } as never).catch(() => undefined);
    else if (/ReadBuffer exceeded/.test(err.message)) fatal ??= `memctx mcp: a message over ${MAX_MESSAGE_BYTES / 1024 / 1024} MiB arrived on stdin, more than the server reads; it stopped (a memory file holds at most 1 MiB: write large text as several files)`;
  };
  await early.handOver((chunk) => input.emit('data', chunk), initialize);
  return { server, inFlight, fatal: () => fatal };
}
