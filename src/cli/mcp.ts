import type { Command } from 'commander';
import { EXIT_OK, MemctxError } from '../errors.js';
import type { Context } from './context.js';
import type { Runner } from './run.js';

export function register(program: Command, run: Runner): void {
  program
    .command('mcp')
    .description('serve the memory directory to an agent over MCP (stdio): the memory tool, search, pack, status, flush, lint')
    .action(run(runMcp));
}

/** Serve until the client closes stdin or the process is told to stop; calls in flight finish first. */
export async function runMcp(ctx: Context): Promise<number> {
  // The SDK's modules are most of the start-up: they load while the directory is looked up.
  const loading = Promise.all([import('../mcp/server.js'), import('@modelcontextprotocol/sdk/server/stdio.js')]);
  loading.catch(() => undefined);
  const { realpathSync } = await import('node:fs');
  // Without a memory directory the server still starts, so the agent gets a tool error naming the fix.
  let root = '';
  let missing: Error | undefined;
  try {
    root = realpathSync(ctx.memoryDir());
  } catch (err) {
    if (!(err instanceof MemctxError)) throw err;
    missing = err;
  }
  const [{ createServer, InFlight }, { StdioServerTransport }] = await loading;
  const inFlight = new InFlight();
  const server = createServer({ root, missing, io: ctx.io }, inFlight);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
    process.once('SIGTERM', () => resolve());
    process.once('SIGINT', () => resolve());
  });
  await server.connect(transport);
  const send = transport.send.bind(transport);
  transport.send = (message) => inFlight.track(send(message));
  // A line that is not JSON-RPC gets the protocol's parse error, and the server carries on.
  server.server.onerror = (err) => {
    if (err.name === 'SyntaxError' || err.name === 'ZodError') void transport.send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: `Parse error: ${err.message.split('\n')[0]}` } } as never).catch(() => undefined);
  };
  await closed;
  await inFlight.settle();
  await server.close().catch(() => undefined);
  process.stdin.pause();
  return EXIT_OK;
}
