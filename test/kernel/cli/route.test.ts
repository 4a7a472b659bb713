import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { commandWord, fastRoute } from '../../../src/kernel/cli/route.js';
import { CHECKPOINT_DEFAULTS, register as registerCheckpoint } from '../../../src/commands/checkpoint/cli.js';
import { FLUSH_DEFAULTS, register } from '../../../src/commands/flush/cli.js';
import { hookRequest } from '../../../src/commands/flush/hook.js';
import { resolveFlush } from '../../../src/commands/flush/schema.js';
import { CLI_LABEL, fromFlags } from '../../../src/kernel/schema.js';

const argv = (...args: string[]) => ['node', 'memctx', ...args];

describe('the hot paths skip commander only for the command lines agents and hooks run', () => {
  it('routes exactly those forms, with --dir or --claude before them', () => {
    expect(fastRoute(argv('status', '--statusline'))).toEqual({ entry: 'statusline', globals: {} });
    expect(fastRoute(argv('flush', '--hook'))).toEqual({ entry: 'flush-hook', globals: {} });
    expect(fastRoute(argv('mcp'))).toEqual({ entry: 'mcp', globals: {} });
    expect(fastRoute(argv('checkpoint'))).toEqual({ entry: 'checkpoint', globals: {} });
    expect(fastRoute(argv('--dir', '/m', 'index', '--staged'))).toEqual({ entry: 'index-staged', globals: { dir: '/m' } });
    expect(fastRoute(argv('--dir=/a b', '--claude', 'mcp'))).toEqual({ entry: 'mcp', globals: { dir: '/a b', claude: true } });
    expect(fastRoute(argv('flush', '--hook', '--summarize-with', 'claude'))).toEqual({ entry: 'flush-hook', globals: {}, flags: { summarizeWith: 'claude' } });
    expect(fastRoute(argv('--dir', '/m', 'flush', '--hook', '--summarize-with', 'codex'))).toEqual({ entry: 'flush-hook', globals: { dir: '/m' }, flags: { summarizeWith: 'codex' } });
  });

  it('leaves every other command line to the full parser', () => {
    for (const args of [[], ['mcp', '--help'], ['status', '--statusline', '--window', '1m'], ['--quiet', 'mcp'], ['index'], ['flush', '--hook', '--git'], ['flush', '--hook', '--summarize-with', 'sh'], ['flush', '--hook', '--summarize-with'], ['status --statusline'], ['--dir'], ['mcp', 'x'], ['checkpoint', '--cli'], ['checkpoint', '--wait', '0']]) {
      expect(fastRoute(argv(...args))).toBeUndefined();
    }
  });

  it("flush --hook's entry gives the handler the options commander would", async () => {
    let seen: unknown;
    const program = new Command('memctx').exitOverride();
    register(program, () => async (...args: unknown[]) => {
      seen = args[0];
    });
    await program.parseAsync(argv('flush', '--hook'));
    expect(seen).toEqual({ ...FLUSH_DEFAULTS, hook: true });
    await program.parseAsync(argv('flush', '--hook', '--summarize-with', 'claude'));
    expect(seen).toEqual({ ...FLUSH_DEFAULTS, hook: true, ...fastRoute(argv('flush', '--hook', '--summarize-with', 'claude'))!.flags });
  });

  it("flush --hook's entry runs with the request the schema makes of those options", () => {
    for (const args of [['flush', '--hook'], ['flush', '--hook', '--summarize-with', 'claude'], ['flush', '--hook', '--summarize-with', 'codex']]) {
      const flags = fastRoute(argv(...args))!.flags;
      expect(hookRequest(flags?.summarizeWith)).toStrictEqual(resolveFlush(fromFlags({ ...FLUSH_DEFAULTS, hook: true, ...flags }, ['summarize_timeout']), CLI_LABEL));
    }
  });

  it("checkpoint's entry gives the handler the options commander would", async () => {
    let seen: unknown;
    const program = new Command('memctx').exitOverride();
    registerCheckpoint(program, () => async (...args: unknown[]) => {
      seen = args[0];
    });
    await program.parseAsync(argv('checkpoint'));
    expect(seen).toEqual({ ...CHECKPOINT_DEFAULTS });
  });
});

describe('the command word', () => {
  it('is the first word after global options and their values', () => {
    expect(commandWord(argv('pack', '--task', 'x'))).toBe('pack');
    expect(commandWord(argv('--dir', 'search', 'search', 'q'))).toBe('search');
    expect(commandWord(argv('--json', '--dir=m', 'pack', '--help'))).toBe('pack');
    expect(commandWord(argv('--', 'pack'))).toBeUndefined();
    expect(commandWord(argv('--help'))).toBeUndefined();
  });
});
