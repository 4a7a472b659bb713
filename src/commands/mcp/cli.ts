import type { Command } from 'commander';
import { EXIT_OK, EXIT_USAGE, MemctxError } from '../../kernel/errors.js';

/** The largest JSON-RPC message the server reads (the SDK's default is 10 MiB). */
const MAX_MESSAGE_BYTES = 32 * 1024 * 1024;
import type { Context } from '../../kernel/cli/context.js';
import type { Runner } from '../../kernel/cli/run.js';
import { LineBuffer } from './line-buffer.js';
import { realpathSync } from 'node:fs';

export function register(program: Command, run: Runner): void {
  program
    .command('mcp')
    .description('serve the memory directory to an agent over MCP (stdio): the memory tool, search, pack, status, flush, lint')
    .action(run(runMcp));
}

/** Serve until the client closes stdin or the process is told to stop; calls in flight finish first. */
export async function runMcp(ctx: Context): Promise<number> {
  // The SDK's modules are most of the start-up: they load while the directory is looked up.
  const loading = Promise.all([import('../../mcp/server.js'), import('../../mcp/sdk.js')]);
  loading.catch(() => undefined);
  // Without a memory directory the server still starts, so the agent gets a tool error naming the fix.
  let root = '';
  let missing: Error | undefined;
  try {
    root = realpathSync(ctx.memoryDir({ confined: true }));
  } catch (err) {
    if (!(err instanceof MemctxError)) throw err;
    missing = err;
  }
  const [{ createServer, InFlight }, { StdioServerTransport, deserializeMessage }] = await loading;
  const inFlight = new InFlight();
  const server = createServer({ root, missing, io: ctx.io }, inFlight);
  // Room for a message well past the 1 MiB a memory file may hold, so an oversized write gets a tool
  // error naming the limit; a message past this one ends the server with one line on stderr and exit 2.
  const transport = new StdioServerTransport(process.stdin, process.stdout);
  // The SDK's buffer copies all it holds on every chunk; ours joins once per line (test/mcp/oversized.test.ts).
  (transport as unknown as { _readBuffer: unknown })._readBuffer = new LineBuffer(MAX_MESSAGE_BYTES, deserializeMessage);
  let fatal: string | undefined;
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
    process.once('SIGTERM', () => resolve());
    process.once('SIGINT', () => resolve());
  });
  await server.connect(transport);
  const send = transport.send.bind(transport);
  transport.send = (message) => inFlight.track(send(message));
  // A line that is not JSON-RPC gets the protocol's parse error, and the server carries on.
  server.onerror = (err: Error) => {
    if (err.name === 'SyntaxError' || err.name === 'ZodError') void transport.send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: `Parse error: ${err.message.split('\n')[0]}` } } as never).catch(() => undefined);
    else if (/ReadBuffer exceeded/.test(err.message)) fatal ??= `memctx mcp: a message over ${MAX_MESSAGE_BYTES / 1024 / 1024} MiB arrived on stdin, more than the server reads; it stopped (a memory file holds at most 1 MiB: write large text as several files)`;
  };
  await closed;
  await inFlight.settle();
  await server.close().catch(() => undefined);
  process.stdin.pause();
  if (fatal !== undefined) {
    ctx.io.stderr.write(`${fatal}\n`);
    return EXIT_USAGE;
  }
  return EXIT_OK;
}
