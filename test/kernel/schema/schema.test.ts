// Issue 21 item 1, for the commands whose flags were checked apart from their MCP twin: status, lint
// and flush parse their flags through the same schema as the MCP tool and the library, and `edit`
// checks frontmatter as the memory tool's str_replace does. Each door names the field its own way
// (`--fail-on` / `fail_on`); past that, the words match.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { tempDir, stateOf } from '../../helpers/cli.js';
import { cliHint, cliMessage, library, neutral } from '../../helpers/doors.js';
import { runCli } from '../../helpers/run.js';
import { callTool, connectInProcess } from '../../helpers/mcp.js';
import { ARG_LABEL, FlushInputSchema, LintInputSchema, LintOptionsSchema, memoryToolHandlers, parseInput, resolveFlush, resolvePack, resolveStatus, StatusInputSchema } from '../../../src/index.js';

let dir: string;
let client: Client;
const FILE = '---\nname: a\ndescription: auth notes\ntype: project\nimportance: 5\n---\n\nTokens.\n';
beforeAll(async () => {
  dir = tempDir('memctx-options-');
  mkdirSync(join(dir, '.memory'));
  writeFileSync(join(dir, '.memory', 'a.md'), FILE);
  expect((await runCli(['index'], { cwd: dir })).code).toBe(0);
  client = await connectInProcess(join(dir, '.memory'), dir);
});
afterAll(async () => client.close());

describe('status: the CLI and the library refuse alike (MCP takes transcript and model only)', () => {
  it.each([
    ['window 0', ['--window', '0'], { window: '0' }, 'window must be a positive number of tokens, got "0"'],
    ['window 1e3 (no exponents; 10k is 10,000)', ['--window', '1e3'], { window: '1e3' }, 'window must be a positive number of tokens, got "1e3"'],
    ['fail_on green', ['--fail-on', 'green'], { fail_on: 'green' }, 'fail_on must be one of yellow, orange, red, got "green"'],
    ['thresholds that fall', ['--thresholds', '90,80,95'], { thresholds: '90,80,95' }, 'thresholds: thresholds must rise: yellow < orange < red, got 90, 80, 95'],
    ['format claud', ['--format', 'claud'], { format: 'claud' }, 'format must be one of claude, codex, gemini, openai, text, got "claud"'],
    ['encoding gpt2', ['--encoding', 'gpt2'], { encoding: 'gpt2' }, 'encoding must be one of o200k_base, cl100k_base, got "gpt2"'],
  ])('%s', async (_what, argv, args, expected) => {
    const cli = await runCli(['status', '-', ...argv], { cwd: dir, input: 'hello' });
    expect([cli.code, neutral(cliMessage(cli.stderr)), library(() => resolveStatus(args))]).toEqual([2, expected, expected]);
  });

  it('a close value: the hint names it as each door spells it', async () => {
    const cli = await runCli(['status', '-', '--fail-on', 'orang'], { cwd: dir, input: 'hello' });
    expect(cliHint(cli.stderr)).toBe('did you mean --fail-on orange?');
    let hint: string | undefined;
    try {
      resolveStatus({ fail_on: 'orang' });
    } catch (err) {
      hint = (err as { hint?: string }).hint;
    }
    expect(hint).toBe('did you mean fail_on "orange"?');
  });

  it('an unknown model: one refusal through the CLI, MCP and the library', async () => {
    const expected = 'unknown model "llama-9"';
    const cli = await runCli(['status', '-', '--model', 'llama-9'], { cwd: dir, input: 'hello' });
    const mcp = await callTool(client, 'status', { model: 'llama-9' });
    expect([cli.code, neutral(cliMessage(cli.stderr)), mcp.isError, mcp.text.slice(0, expected.length), library(() => resolveStatus({ model: 'llama-9' }))]).toEqual([2, expected, true, expected, expected]);
  });

  it('MCP arguments of the wrong JSON type: the same message from MCP and the library', async () => {
    for (const [args, expected] of [
      [{ transcript: 5 }, 'transcript must be a string, got number 5'],
      [{ model: ['gpt-5'] }, 'model must be a string, got a list'],
      [{ window: 200000 }, 'unknown argument window'],
    ] as const) {
      const mcp = await callTool(client, 'status', args);
      expect([mcp.isError, mcp.text.replace(/ \(known: .*\)$/, ''), library(() => resolveStatus(args, ARG_LABEL, StatusInputSchema))]).toEqual([true, expected, expected]);
    }
  });
});

describe('lint: the CLI and the library schema refuse alike (MCP takes only the filters rule and path)', () => {
  it.each([
    ['format xml', ['--format', 'xml'], { format: 'xml' }, 'format must be one of stylish, json, github, sarif, got "xml"'],
    ['max_warnings -1', ['--max-warnings', '-1'], { max_warnings: -1 }, 'max_warnings must be a whole number of at least 0, got -1'],
    ['max_warnings many', ['--max-warnings', 'many'], { max_warnings: 'many' }, 'max_warnings must be a whole number of at least 0, got "many"'],
  ])('%s', async (_what, argv, args, expected) => {
    const cli = await runCli(['lint', ...argv], { cwd: dir });
    expect([cli.code, neutral(cliMessage(cli.stderr)), library(() => parseInput(LintOptionsSchema, args, ARG_LABEL))]).toEqual([2, expected, expected]);
  });

  it('MCP arguments: an option the tool does not take is refused, by the tool and the library schema', async () => {
    const mcp = await callTool(client, 'lint', { fix: true });
    expect([mcp.isError, mcp.text, library(() => parseInput(LintInputSchema, { fix: true }, ARG_LABEL))]).toEqual([true, 'unknown argument fix (known: rule, path)', 'unknown argument fix']);
  });
});

describe('flush: the CLI, MCP and the library refuse alike', () => {
  it.each([
    ['target lots', ['--target', 'lots'], { target: 'lots' }, 'target must be a positive number of tokens, got "lots"'],
    ['target over max', ['--target', '700', '--max', '650'], { target: '700', max: 650 }, 'target (700) must not be over max (650)'],
    ['summarize_timeout 0', ['--summarize-timeout', '0'], { summarize_timeout: 0 }, 'summarize_timeout must be a positive whole number, got 0'],
    ['encoding gpt2', ['--encoding', 'gpt2'], { encoding: 'gpt2' }, 'encoding must be one of o200k_base, cl100k_base, got "gpt2"'],
  ])('%s', async (_what, argv, args, expected) => {
    const cli = await runCli(['flush', '--goal', 'x', ...argv], { cwd: dir });
    expect([cli.code, neutral(cliMessage(cli.stderr)), library(() => resolveFlush(args))]).toEqual([2, expected, expected]);
  });

  it('defaults are settled once: the MCP tool and the library get the CLI defaults', () => {
    expect(resolveFlush({})).toMatchObject({ template: 'session', target: 500, max: 650, encoding: 'o200k_base' });
    expect(resolveFlush({ target: '1k', max: '2k' })).toMatchObject({ target: 1000, max: 2000 });
  });

  it('MCP arguments of the wrong JSON type: the same message from MCP and the library', async () => {
    for (const [args, expected] of [
      [{ progress: 'did x' }, 'progress must be a list of strings, got "did x"'],
      [{ decisions: ['kept', 1] }, 'decisions must hold only strings, got number 1'],
      [{ dry_run: 'yes' }, 'dry_run must be true or false, got "yes"'],
      [{ session_id: 5 }, 'session_id must be a string, got number 5'],
    ] as const) {
      const mcp = await callTool(client, 'flush', args);
      expect([mcp.isError, mcp.text, library(() => parseInput(FlushInputSchema, args, ARG_LABEL))]).toEqual([true, expected, expected]);
    }
  });

  it('flush --hook: a bad value never fails the session; it is logged and nothing is written', async () => {
    const hook = await runCli(['flush', '--hook', '--target', 'lots'], { cwd: dir, input: JSON.stringify({ session_id: 's1', cwd: dir, hook_event_name: 'SessionEnd' }) });
    expect(hook.code).toBe(0);
    expect(hook.stderr).toBe('memctx flush --hook: --target must be a positive number of tokens, got "lots" (e.g. --target 25000, --target 25k or --target 1m)\n');
    expect(readFileSync(join(stateOf(join(dir, '.memory')), 'flush.log'), 'utf8')).toMatch(/hook error: --target must be a positive number of tokens, got "lots"/);
  });
});

describe('pack and memory: MCP arguments of the wrong JSON type', () => {
  it('budget as an object, focus as a number: the same message from MCP and the library', async () => {
    for (const [args, expected] of [
      [{ budget: {} }, 'budget must be a number of tokens or a string such as "25k", got an object'],
      [{ budget: [10] }, 'budget must be a number of tokens or a string such as "25k", got a list'],
      [{ focus: 5 }, 'focus must be a list of strings, got number 5'],
    ] as const) {
      const mcp = await callTool(client, 'pack', args);
      expect([mcp.isError, mcp.text, library(() => resolvePack(args))]).toEqual([true, expected, expected]);
    }
  });

  it('a path as a number, a command as a list: the memory tool and its library entry refuse alike', async () => {
    for (const [args, expected] of [
      [{ command: 'view', path: 5 }, 'path must be a string, got number 5'],
      [{ command: ['view'], path: '/memories' }, 'command must be one of view, create, str_replace, insert, delete, rename, got a list'],
    ] as const) {
      const mcp = await callTool(client, 'memory', args);
      const lib = await memoryToolHandlers(join(dir, '.memory'))
        .view(args as never)
        .then(() => '(accepted)', (err: Error) => err.message);
      expect([mcp.isError, mcp.text, lib]).toEqual([true, expected, expected]);
    }
  });

  it('a close profile: the hint names it as each door spells it', async () => {
    const cli = await runCli(['pack', '--profile', 'rehydrat'], { cwd: dir });
    const mcp = await callTool(client, 'pack', { profile: 'rehydrat' });
    expect([cliHint(cli.stderr), mcp.text.slice(mcp.text.indexOf('(did'))]).toEqual(['did you mean --profile rehydrate?', '(did you mean profile "rehydrate"?)']);
  });
});

describe('frontmatter: `memctx edit` refuses what the memory tool str_replace refuses', () => {
  it.each([
    ['a wrong type', 'type: project', 'type: bogus', 'invalid type "bogus"; expected one of user, feedback, project, reference'],
    ['an out-of-range importance', 'importance: 5', 'importance: 99', '"importance" must be a whole number from 1 to 10 (got 99)'],
    ['an unknown kind', 'type: project', 'type: project\nkind: whim', 'unknown kind "whim"; expected one of decision, issue, state, learning, session, note'],
    ['a date that does not exist', 'type: project', 'type: project\nexpires: 2026-02-30', '"expires" is not an ISO date: "2026-02-30"'],
  ])('%s', async (_what, old, replacement, expected) => {
    const cli = await runCli(['edit', 'a.md', '--old', old, '--new', replacement], { cwd: dir });
    expect([cli.code, cliMessage(cli.stderr).includes(expected)]).toEqual([2, true]);
    expect(cliHint(cli.stderr)).toMatch(/^`memctx lint` would report this \(frontmatter\/[a-z-]+\); nothing was written$/);
    const mcp = await callTool(client, 'memory', { command: 'str_replace', path: '/memories/a.md', old_str: old, new_str: replacement });
    expect(mcp).toMatchObject({ isError: true, text: expect.stringContaining(expected) });
    expect(readFileSync(join(dir, '.memory', 'a.md'), 'utf8')).toBe(FILE);
  });

  it('an edit that leaves a problem the file already had is not refused', async () => {
    const cwd = tempDir('memctx-options-edit-');
    mkdirSync(join(cwd, '.memory'));
    writeFileSync(join(cwd, '.memory', 'b.md'), '---\nname: b\ndescription: d\ntype: bogus\n---\n\nOld words.\n');
    const cli = await runCli(['edit', 'b.md', '--old', 'Old words.', '--new', 'New words.'], { cwd });
    expect(cli.code).toBe(0);
    expect(readFileSync(join(cwd, '.memory', 'b.md'), 'utf8')).toContain('New words.');
  });

  it('a file without frontmatter: edit and str_replace both take the edit (its missing fields are the problem it had)', async () => {
    const cwd = tempDir('memctx-options-bare-');
    mkdirSync(join(cwd, '.memory'));
    writeFileSync(join(cwd, '.memory', 'c.md'), 'Loose notes.\n');
    const cli = await runCli(['edit', 'c.md', '--old', 'Loose', '--new', 'Tidy'], { cwd });
    const mcpClient = await connectInProcess(join(cwd, '.memory'), cwd);
    const mcp = await callTool(mcpClient, 'memory', { command: 'str_replace', path: '/memories/c.md', old_str: 'Tidy', new_str: 'Kept' });
    await mcpClient.close();
    expect([cli.code, mcp.isError]).toEqual([0, false]);
    expect(readFileSync(join(cwd, '.memory', 'c.md'), 'utf8')).toContain('Kept notes.');
  });
});

describe('parseInput: a required field left out', () => {
  it('is named as missing (not unknown), with what the field is; an unknown key is still unknown', async () => {
    const v = await import('valibot');
    const schema = v.strictObject({ paths: v.pipe(v.array(v.string()), v.description('memory files that still hold')), note: v.optional(v.string()) });
    const refusal = (input: unknown, label = ARG_LABEL) => {
      try {
        parseInput(schema, input, label);
        return undefined;
      } catch (err) {
        return { message: (err as Error).message, hint: (err as { hint?: string }).hint };
      }
    };
    expect(refusal({})).toEqual({ message: 'missing argument paths', hint: 'paths: memory files that still hold' });
    expect(refusal({ note: 'x' }, (key) => `--${key}`)).toEqual({ message: 'missing argument --paths', hint: '--paths: memory files that still hold' });
    expect(refusal({ paths: ['a'], extra: 1 })).toEqual({ message: 'unknown argument extra', hint: 'known: paths, note' });
    expect(refusal({ paths: ['a'] })).toBeUndefined();
  });
});
