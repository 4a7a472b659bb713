// Issue 21 item 1: the same bad input gets the same refusal through the CLI, the MCP server and the
// library. Each door names the field its own way (`--budget` / `budget`); past that, the words match.
// Before: MCP took `budget` as a whole number only ("10k" refused there, accepted by the CLI), a
// whitespace-only task was a CLI error but an MCP warning, and the memory tool wrote `type: bogus`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { tempDir } from '../../helpers/cli.js';
import { cliMessage, library, neutral } from '../../helpers/doors.js';
import { runCli } from '../../helpers/run.js';
import { callTool, connectInProcess } from '../../helpers/mcp.js';
import { memoryToolHandlers, resolvePack, resolveLintConfig, RULES, parseInput, SearchInputSchema, ARG_LABEL } from '../../../src/index.js';

let dir: string;
let client: Client;
beforeAll(async () => {
  dir = tempDir('memctx-doors-');
  mkdirSync(join(dir, '.memory'));
  writeFileSync(join(dir, '.memory', 'a.md'), '---\nname: a\ndescription: auth notes\ntype: project\n---\n\nTokens.\n');
  client = await connectInProcess(join(dir, '.memory'), dir);
});
afterAll(async () => client.close());

describe('pack options: one refusal through every door', () => {
  it.each([
    ['unknown profile', ['--profile', 'rehydrat'], { profile: 'rehydrat' }, 'profile must be one of rehydrate, handoff-complete, handoff-specialist, handoff-continuation, handoff-emergency, got "rehydrat"'],
    ['budget 0', ['--budget', '0'], { budget: '0' }, 'budget must be a positive number of tokens, got "0"'],
    ['budget -5', ['--budget', '-5'], { budget: '-5' }, 'budget must be a positive number of tokens, got "-5"'],
    ['budget 1e3', ['--budget', '1e3'], { budget: '1e3' }, 'budget must be a positive number of tokens, got "1e3"'],
    ['budget 50% without a window', ['--budget', '50%'], { budget: '50%' }, 'budget 50% is a percentage, but no context window was given'],
    ['whitespace-only task', ['--task', '   '], { task: '   ' }, 'task is empty (only white space)'],
  ])('%s', async (_what, argv, args, expected) => {
    const cli = await runCli(['pack', ...argv], { cwd: dir });
    expect(cli.code).toBe(2);
    const mcp = await callTool(client, 'pack', args);
    expect(mcp.isError).toBe(true);
    const lib = library(() => resolvePack(args));
    // MCP adds the hint in parentheses after the message, as every tool error does.
    expect([neutral(cliMessage(cli.stderr)), mcp.text.startsWith(expected) ? expected : mcp.text, lib]).toEqual([expected, expected, expected]);
  });

  it('budget 0 and -5 as JSON numbers are refused as their text is', async () => {
    for (const budget of [0, -5]) {
      const mcp = await callTool(client, 'pack', { budget });
      expect([mcp.text.replace(/ \(e\.g\..*\)$/, ''), library(() => resolvePack({ budget }))]).toEqual([`budget must be a positive number of tokens, got "${budget}"`, `budget must be a positive number of tokens, got "${budget}"`]);
    }
  });

  it('10k is 10,000 tokens through every door (MCP used to refuse it)', async () => {
    const cli = await runCli(['--json', 'pack', '--budget', '10k'], { cwd: dir });
    const mcp = await callTool(client, 'pack', { budget: '10k' });
    expect([JSON.parse(cli.stdout).budget, mcp.structured?.budget, resolvePack({ budget: '10k' }).budget]).toEqual([10_000, 10_000, 10_000]);
  });

  it('MCP arguments of the wrong JSON type: the same message from MCP and the library', async () => {
    for (const [args, expected] of [
      [{ budget: true }, 'budget must be a number of tokens or a string such as "25k", got boolean true'],
      [{ focus: 'a.md' }, 'focus must be a list of strings, got "a.md"'],
      [{ task: 7 }, 'task must be a string, got number 7'],
      [{ colour: 'red' }, 'unknown argument colour'],
    ] as const) {
      const mcp = await callTool(client, 'pack', args);
      expect([mcp.isError, mcp.text.replace(/ \(known: .*\)$/, ''), library(() => resolvePack(args))]).toEqual([true, expected, expected]);
    }
  });
});

describe('search options: one refusal through the CLI, MCP and the library schema', () => {
  it.each([
    ['limit 0', ['--limit', '0'], { limit: 0 }, 'limit must be a whole number from 1 to 100, got 0'],
    ['min_importance 11', ['--min-importance', '11'], { min_importance: 11 }, 'min_importance must be a whole number from 1 to 10, got 11'],
    ['min_importance "high"', ['--min-importance', 'high'], { min_importance: 'high' }, 'min_importance must be a whole number from 1 to 10, got "high"'],
  ])('%s', async (_what, argv, args, expected) => {
    const cli = await runCli(['search', 'auth', ...argv], { cwd: dir });
    const mcp = await callTool(client, 'search', { query: 'auth', ...args });
    const lib = library(() => parseInput(SearchInputSchema, { query: 'auth', ...args }, ARG_LABEL));
    expect([cli.code, neutral(cliMessage(cli.stderr)), mcp.text, lib]).toEqual([2, expected, expected, expected]);
  });
});

describe('frontmatter: `memctx add`, the MCP memory tool and the library memory tool refuse alike', () => {
  it.each([
    ['a wrong type', ['--type', 'bogus'], 'type: bogus', 'invalid type "bogus"; expected one of user, feedback, project, reference'],
    ['an out-of-range importance', ['--type', 'project', '--importance', '99'], 'type: project\nimportance: 99', '"importance" must be a whole number from 1 to 10 (got 99)'],
    ['an unknown kind', ['--type', 'project', '--kind', 'whim'], 'type: project\nkind: whim', 'unknown kind "whim"; expected one of decision, issue, state, learning, session, note'],
    ['a date that does not exist', ['--type', 'project', '--expires', '2026-02-30'], 'type: project\nexpires: 2026-02-30', '"expires" is not an ISO date: "2026-02-30"'],
  ])('%s', async (_what, flags, yaml, expected) => {
    const cli = await runCli(['add', 'x.md', '--name', 'x', '--description', 'd', ...flags], { cwd: dir, input: 'body\n' });
    expect(cli.code).toBe(2);
    const file_text = `---\nname: x\ndescription: d\n${yaml}\n---\n\nbody\n`;
    const mcp = await callTool(client, 'memory', { command: 'create', path: '/memories/x.md', file_text });
    const lib = await memoryToolHandlers(join(dir, '.memory')).create({ command: 'create', path: '/memories/x.md', file_text }).then(() => '(accepted)', (err: Error) => err.message);
    // The CLI names the option (`--type: `), the tool the file and line; the rule's words are the same.
    expect(cliMessage(cli.stderr)).toContain(expected);
    expect(mcp).toMatchObject({ isError: true, text: expect.stringContaining(expected) });
    expect(lib).toContain(expected);
  });
});

describe('a config key of the wrong type: the same refusal from the CLI, MCP and the library', () => {
  it('thresholds.maxTokens "lots"', async () => {
    const cwd = tempDir('memctx-doors-config-');
    mkdirSync(join(cwd, '.memory'));
    const config = { thresholds: { maxTokens: 'lots' } };
    writeFileSync(join(cwd, 'memctx.config.json'), JSON.stringify(config));
    const cli = await runCli(['lint'], { cwd });
    expect(cli.code).toBe(2);
    const mcpClient = await connectInProcess(join(cwd, '.memory'), cwd);
    const mcp = await callTool(mcpClient, 'lint', {});
    await mcpClient.close();
    const lib = library(() => resolveLintConfig(config, RULES));
    expect(mcp.isError).toBe(true);
    expect(cliMessage(cli.stderr)).toBe(`${join(cwd, 'memctx.config.json')}:1: invalid configuration: ${lib}`);
    // MCP names no host path: the file by its last part.
    expect(mcp.text).toContain(`…/memctx.config.json:1: invalid configuration: ${lib}`);
  });
});
