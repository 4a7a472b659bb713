import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { BIN, tempDir } from '../../../helpers/cli.js';
import { runMemctx } from '../../../helpers/run.js';

/** A global `memctx` on PATH that starts the built bin. */
function globalBin(): string {
  const dir = join(tempDir(), 'bin');
  mkdirSync(dir);
  writeFileSync(join(dir, 'memctx'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"\n`, { mode: 0o755 });
  return dir;
}

describe('init --agent codex: the MCP server in config.toml', () => {
  it("writes [mcp_servers.memctx] to the project's .codex/config.toml, keeping what is there; a second run changes nothing", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, '.codex'));
    writeFileSync(join(dir, '.codex/config.toml'), '# my settings\nmodel = "gpt-5"\n');
    const out = await runMemctx(['init', '--agent', 'codex'], { cwd: dir, env: { PATH: `${globalBin()}:/usr/bin:/bin` }, home: join(dir, 'home') });
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('updated .codex/config.toml: mcp_servers.memctx');
    expect(out.stdout).toContain('Codex reads .codex/config.toml once you trust the project');
    const text = readFileSync(join(dir, '.codex/config.toml'), 'utf8');
    expect(text.startsWith('# my settings\nmodel = "gpt-5"\n\n[mcp_servers.memctx]\n')).toBe(true);
    expect(parse(text)).toEqual({ model: 'gpt-5', mcp_servers: { memctx: { command: 'memctx', args: ['mcp'] } } });
    const again = await runMemctx(['init', '--agent', 'codex'], { cwd: dir, env: { PATH: '/usr/bin:/bin' }, home: join(dir, 'home') });
    expect(again.stdout).toContain('agent files already set up; nothing changed');
    expect(readFileSync(join(dir, '.codex/config.toml'), 'utf8')).toBe(text);
  });

  it('hooks.json names a memory folder other than .memory relative to the project: Codex sets no CLAUDE_PROJECT_DIR', async () => {
    const dir = tempDir();
    const out = await runMemctx(['--dir', 'notes', 'init', '--agent', 'codex'], { cwd: dir, env: { PATH: '/usr/bin:/bin' } });
    expect(out.code).toBe(0);
    const hooks = JSON.parse(readFileSync(join(dir, '.codex/hooks.json'), 'utf8')) as { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> };
    expect(Object.fromEntries(Object.entries(hooks.hooks).map(([event, groups]) => [event, groups[0].hooks[0].command]))).toEqual({
      Stop: 'memctx --dir notes checkpoint',
      SessionEnd: 'memctx --dir notes flush --hook',
      PreCompact: 'memctx --dir notes flush --hook',
    });
  });

  it('a config.toml holding a different memctx server is left alone, with a warning', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, '.codex'));
    const mine = '[mcp_servers.memctx]\ncommand = "/opt/memctx/bin/memctx"\nargs = ["mcp", "--dir", "notes"]\n';
    writeFileSync(join(dir, '.codex/config.toml'), mine);
    const out = await runMemctx(['init', '--agent', 'codex'], { cwd: dir, env: { PATH: '/usr/bin:/bin' } });
    expect(out.code).toBe(0);
    expect(out.stderr).toContain(`warning: ${join(dir, '.codex/config.toml')} already has an MCP server named memctx; left as it is`);
    expect(readFileSync(join(dir, '.codex/config.toml'), 'utf8')).toBe(mine);
  });

  it("--user-config writes the user's $CODEX_HOME/config.toml instead; broken TOML is refused with its line", async () => {
    const dir = tempDir();
    const codexHome = join(tempDir(), 'codex');
    const out = await runMemctx(['init', '--agent', 'codex', '--user-config'], { cwd: dir, env: { PATH: '/usr/bin:/bin', CODEX_HOME: codexHome } });
    expect(out.code).toBe(0);
    expect(parse(readFileSync(join(codexHome, 'config.toml'), 'utf8'))).toEqual({ mcp_servers: { memctx: { command: 'memctx', args: ['mcp'] } } });
    expect((await runMemctx(['init', '--agent', 'claude', '--user-config'], { cwd: dir })).code).toBe(2);
    const bad = tempDir();
    mkdirSync(join(bad, '.codex'));
    writeFileSync(join(bad, '.codex/config.toml'), 'model = "a"\n[broken\n');
    const refused = await runMemctx(['init', '--agent', 'codex'], { cwd: bad, env: { PATH: '/usr/bin:/bin' } });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`memctx: error: ${join(bad, ".codex/config.toml")}:2: is not valid TOML (Invalid TOML document: illegal character in key); nothing was changed`);
  });
});

describe('init --agent cursor: .cursor/mcp.json', () => {
  it("writes the server, and Cursor's configured command answers an MCP client (SDK): tools listed, memory viewed", async () => {
    const dir = tempDir();
    const bin = globalBin();
    const out = await runMemctx(['init', '--agent', 'cursor'], { cwd: dir, env: { PATH: `${bin}:/usr/bin:/bin` } });
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('created .cursor/mcp.json: mcpServers.memctx');
    const config = JSON.parse(readFileSync(join(dir, '.cursor/mcp.json'), 'utf8'));
    expect(config).toEqual({ mcpServers: { memctx: { command: 'memctx', args: ['mcp'] } } });
    const server = config.mcpServers.memctx;
    const client = new Client({ name: 'cursor-stand-in', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: server.command, args: server.args, cwd: dir, env: { PATH: `${bin}:/usr/bin:/bin`, NO_COLOR: '1' }, stderr: 'pipe' }));
    try {
      const tools = (await client.listTools()).tools.map((t) => t.name);
      expect(tools).toContain('memory');
      const view = await client.callTool({ name: 'memory', arguments: { command: 'view', path: '/memories' } });
      expect(view.isError).toBeFalsy();
      expect(JSON.stringify(view.content)).toContain('MEMORY.md');
    } finally {
      await client.close();
    }
  });
});
