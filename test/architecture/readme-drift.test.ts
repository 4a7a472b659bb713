/**
 * README statements that drifted from the code (issue 34, item 8): the Node requirement is the one
 * `engines` asks for, everywhere it is given; init wires an MCP server for Codex and the README says so.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { REPO, tempDir } from '../helpers/cli.js';
import { runMemctx } from '../helpers/run.js';

/** README.md and every page of docs/: where the reference moved. */
const README = ['README.md', ...readdirSync(join(REPO, 'docs'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.md')).map((f) => join('docs', f))]
  .map((f) => readFileSync(join(REPO, f), 'utf8'))
  .join('\n');
const engines = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;

describe('README drift', () => {
  it('every Node.js requirement is the engines range', () => {
    const requirements = README.split('\n').filter((line) => /^Node\.js\b/.test(line));
    expect(requirements.length).toBeGreaterThanOrEqual(2);
    for (const line of requirements) expect(line).toContain(`Node.js \`${engines}\``);
  });

  it("says init wires Codex's MCP server, as it does", async () => {
    expect(README).not.toMatch(/wires no MCP server for Codex/);
    expect(README.replace(/\n/g, ' ')).toContain('`init` wires the MCP server for Codex too (`.codex/config.toml`)');
    const dir = tempDir();
    expect((await runMemctx(['init', '--agent', 'codex'], { cwd: dir, env: { PATH: '/usr/bin:/bin' } })).code).toBe(0);
    expect(parse(readFileSync(join(dir, '.codex/config.toml'), 'utf8'))).toEqual({ mcp_servers: { memctx: { command: 'memctx', args: ['mcp'] } } });
  });
});
