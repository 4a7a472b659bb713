/**
 * `memctx mcp` figures: start to first response (spawn, initialize answered) and a `memory`
 * `create` round trip (write, re-index, answer) on a 2,000-file directory with a warm scan cache,
 * driven by the MCP SDK's own client over stdio.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { generateCorpus } from './corpus.js';
import { BIN, fmtMs, median, timeMemctx } from './measure.js';
import type { BenchSection } from './run.js';

async function connect(dir: string): Promise<{ client: Client; ms: number }> {
  const start = process.hrtime.bigint();
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, '--dir', dir, 'mcp'], env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' } });
  const client = new Client({ name: 'memctx-bench', version: '1' });
  await client.connect(transport);
  return { client, ms: Number(process.hrtime.bigint() - start) / 1e6 };
}

const section: BenchSection = {
  name: 'mcp',
  async run(work) {
    rmSync(work, { recursive: true, force: true });
    const dir = join(work, '.memory');
    mkdirSync(dir, { recursive: true });
    generateCorpus(dir, 2000);
    timeMemctx(['--dir', dir, 'index'], { runs: 1 });

    const starts: number[] = [];
    for (let i = 0; i < 7; i++) {
      const { client, ms } = await connect(dir);
      starts.push(ms);
      await client.close();
    }

    const { client } = await connect(dir);
    const trips: number[] = [];
    for (let i = 0; i < 15; i++) {
      const start = process.hrtime.bigint();
      const result = (await client.callTool({ name: 'memory', arguments: { command: 'create', path: `/memories/bench/note_${i}.md`, file_text: `# Bench note ${i}\n\nWritten by the MCP bench.\n` } })) as { isError?: boolean; content: Array<{ text: string }> };
      trips.push(Number(process.hrtime.bigint() - start) / 1e6);
      if (result.isError) throw new Error(`memory create failed: ${result.content[0]?.text}`);
    }
    await client.close();
    // The first create warms the server (imports, parser); quote the rest.
    const warm = trips.slice(1);
    return [
      { label: 'memctx mcp: start to first response (initialize)', value: fmtMs(median(starts)), goal: '< 300 ms', ok: median(starts) < 300, data: { runsMs: starts } },
      { label: 'memory create round trip, 2,000 files, warm scan cache', value: fmtMs(median(warm)), goal: '< 100 ms', ok: median(warm) < 100, data: { runsMs: trips } },
    ];
  },
};

export default section;
