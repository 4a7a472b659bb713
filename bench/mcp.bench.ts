/**
 * `memctx mcp` figures: start to first response (spawn, initialize answered) and a `memory`
 * `create` round trip (write, re-index, answer) on a 2,000-file directory with a warm scan cache,
 * driven by the MCP SDK's own client over stdio.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
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

    // CPU time, which a loaded machine does not inflate: the server answering initialize, and the create action in-process.
    const init = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } })}\n`;
    const startCpu: number[] = [];
    if (existsSync('/usr/bin/time')) {
      for (let i = 0; i < 5; i++) {
        const r = spawnSync('/usr/bin/time', ['-f', '%U %S', process.execPath, BIN, '--dir', dir, 'mcp'], { input: init, encoding: 'utf8' });
        const [user, sys] = (r.stderr.trim().split('\n').pop() ?? '0 0').split(' ').map(Number);
        startCpu.push((user + sys) * 1000);
      }
    }
    const { runMemoryCommand } = await import('../src/commands/memory/memory.js');
    const createCpu: number[] = [];
    for (let i = 0; i < 12; i++) {
      const before = process.cpuUsage();
      await runMemoryCommand(dir, { command: 'create', path: `/memories/bench/cpu_${i}.md`, file_text: `# CPU note ${i}\n\nx\n` });
      const used = process.cpuUsage(before);
      createCpu.push((used.user + used.system) / 1000);
    }
    const createWarm = createCpu.slice(1);
    return [
      { label: 'memctx mcp: start to first response (initialize)', value: fmtMs(median(starts)), goal: '< 300 ms', ok: median(starts) < 300, data: { runsMs: starts } },
      { label: 'memory create round trip, 2,000 files, warm scan cache', value: fmtMs(median(warm)), goal: '< 100 ms', ok: median(warm) < 100, data: { runsMs: trips } },
      ...(startCpu.length ? [{ label: 'memctx mcp answering initialize: CPU time (user+sys)', value: fmtMs(median(startCpu)), data: { runsMs: startCpu } }] : []),
      { label: 'memory create action in-process, 2,000 files: CPU time', value: fmtMs(median(createWarm)), data: { runsMs: createCpu } },
    ];
  },
};

export default section;
