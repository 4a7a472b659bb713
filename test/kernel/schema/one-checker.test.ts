// Issue 31 item 1: one option checker for every command. A bad value gets the same refusal (message,
// did-you-mean, exit 2) whether it comes through the CLI or MCP; each door names the field its own way
// (`--type` / `type`). Before, search's filters said `--type` through MCP too, and a case-changed
// encoding passed some commands.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { tempDir } from '../../helpers/cli.js';
import { cliHint, cliMessage, library, neutral } from '../../helpers/doors.js';
import { runCli } from '../../helpers/run.js';
import { callTool, connectInProcess } from '../../helpers/mcp.js';
import { ARG_LABEL, parseInput } from '../../../src/kernel/schema.js';
import { LsOptions } from '../../../src/commands/ls/schema.js';
import { SessionsOptions } from '../../../src/commands/sessions/schema.js';
import { InitOptions } from '../../../src/commands/init/schema.js';

let dir: string;
let client: Client;
const FILE = '---\nname: a\ndescription: auth notes\ntype: project\nkind: decision\nimportance: 5\n---\n\nTokens.\n';
beforeAll(async () => {
  dir = tempDir('memctx-one-checker-');
  mkdirSync(join(dir, '.memory'));
  writeFileSync(join(dir, '.memory', 'a.md'), FILE);
  expect((await runCli(['index'], { cwd: dir })).code).toBe(0);
  client = await connectInProcess(join(dir, '.memory'), dir);
});
afterAll(async () => client.close());

describe('a bad value through the CLI and MCP: one refusal', () => {
  it.each([
    ['search type', ['search', 'tokens', '--type', 'projec'], 'search', { query: 'tokens', type: 'projec' }, 'type must be one of user, feedback, project, reference, other, got "projec"'],
    ['search kind', ['search', 'tokens', '--kind', 'decisio'], 'search', { query: 'tokens', kind: 'decisio' }, 'kind must be one of decision, issue, state, learning, session, note, got "decisio"'],
    ['search since', ['search', 'tokens', '--since', 'yesterday'], 'search', { query: 'tokens', since: 'yesterday' }, 'since must be a date (2026-11-01) or a period (12h, 7d, 2w), got "yesterday"'],
    ['search limit', ['search', 'tokens', '--limit', '0'], 'search', { query: 'tokens', limit: 0 }, 'limit must be a whole number from 1 to 100, got 0'],
    ['search min_importance', ['search', 'tokens', '--min-importance', '11'], 'search', { query: 'tokens', min_importance: 11 }, 'min_importance must be a whole number from 1 to 10, got 11'],
    ['pack profile', ['pack', '--profile', 'REHYDRATE'], 'pack', { profile: 'REHYDRATE' }, 'profile must be one of rehydrate, handoff-complete, handoff-specialist, handoff-continuation, handoff-emergency, got "REHYDRATE"'],
    ['pack budget', ['pack', '--budget', 'abc'], 'pack', { budget: 'abc' }, undefined],
  ])('%s', async (_what, argv, tool, args, expected) => {
    const cli = await runCli(argv, { cwd: dir });
    const mcp = await callTool(client, tool, args);
    const message = neutral(cliMessage(cli.stderr));
    expect([cli.code, mcp.isError, mcp.text.slice(0, message.length)]).toEqual([2, true, message]);
    if (expected !== undefined) expect(message).toBe(expected);
  });

  it('a close value: the did-you-mean names it as each door spells it', async () => {
    const cli = await runCli(['search', 'tokens', '--type', 'projec'], { cwd: dir });
    const mcp = await callTool(client, 'search', { query: 'tokens', type: 'projec' });
    expect(cliHint(cli.stderr)).toBe('did you mean --type project?');
    expect(mcp.text).toContain('did you mean type "project"?');
  });
});

describe('--encoding O200K_BASE: exit 2 with a did-you-mean for every command that takes it', () => {
  it.each([
    [['pack']],
    [['compact', '-']],
    [['status', '-']],
    [['flush', '--dry-run', '--goal', 'g']],
  ])('%j', async (argv) => {
    const cli = await runCli([...argv, '--encoding', 'O200K_BASE'], { cwd: dir, input: 'hello' });
    expect([cli.code, cliMessage(cli.stderr), cliHint(cli.stderr)]).toEqual([2, '--encoding must be one of o200k_base, cl100k_base, got "O200K_BASE"', 'did you mean --encoding o200k_base?']);
  });
});

describe('ls, sessions and init parse their flags with their schema: the CLI and the library refuse alike', () => {
  it.each([
    ['ls type', ['ls', '--type', 'projec'], undefined, 'type must be one of user, feedback, project, reference, other, got "projec"'],
    ['ls unknown option', ['ls', '--archive', '--unlisted', '--tag', 'x', '--kind', 'decisio'], undefined, 'kind must be one of decision, issue, state, learning, session, note, got "decisio"'],
    ['sessions limit 0', ['sessions', '--limit', '0'], () => parseInput(SessionsOptions, { limit: 0 }, ARG_LABEL), 'limit must be a positive whole number, got 0'],
    ['sessions limit many', ['sessions', '--limit', 'many'], () => parseInput(SessionsOptions, { limit: 'many' }, ARG_LABEL), 'limit must be a positive whole number, got "many"'],
    ['init agent', ['init', '--agent', 'claud', '--dry-run'], () => parseInput(InitOptions, { agent: 'claud' }, ARG_LABEL), 'agent must be one of claude, codex, cursor, got "claud"'],
  ])('%s', async (_what, argv, lib, expected) => {
    const cli = await runCli(argv, { cwd: dir });
    expect([cli.code, neutral(cliMessage(cli.stderr))]).toEqual([2, expected]);
    if (lib) expect(library(lib)).toBe(expected);
  });

  it('ls keeps a filter of another case (it matches case-insensitively)', async () => {
    const cli = await runCli(['ls', '--json', '--type', 'PROJECT'], { cwd: dir });
    expect([cli.code, (JSON.parse(cli.stdout) as { path: string }[]).map((f) => f.path)]).toEqual([0, ['a.md']]);
    expect(library(() => parseInput(LsOptions, { type: 'PROJECT', archive: true }, ARG_LABEL))).toBe('(accepted)');
  });
});
