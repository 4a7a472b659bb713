import { mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, removeDir, tempDir } from '../../helpers/cli.js';
import { runCli } from '../../helpers/run.js';

let dir: string;
beforeAll(() => {
  dir = copyFixture('transcripts');
});
afterAll(() => removeDir(resolve(dir, '..')));

const run = async (args: string[], options: { input?: string; env?: Record<string, string | undefined> } = {}) => await runCli(args, { cwd: dir, ...options });
const json = async (args: string[], options: { input?: string; env?: Record<string, string | undefined> } = {}) => {
  const r = await run(['--json', ...args], options);
  return { ...r, data: r.stdout ? JSON.parse(r.stdout) : undefined };
};
const jsonl = (...lines: unknown[]) => lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n';
const assistant = (id: string, usage: unknown, extra: Record<string, unknown> = {}) => ({ type: 'assistant', isSidechain: false, message: { id, role: 'assistant', model: 'claude-opus-4-1-20250805', content: [{ type: 'text', text: `reply ${id}` }], usage }, ...extra });
const u = (input: unknown, read: unknown = 0) => ({ input_tokens: input, cache_creation_input_tokens: 0, cache_read_input_tokens: read, output_tokens: 1 });

describe('memctx status', () => {
  it('reports recorded Claude Code usage: level, percent, used/window, bar, advice, source', async () => {
    const r = await run(['status', 'claude-session.jsonl']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      [
        'claude-session.jsonl  YELLOW  80.7%  161,506 / 200,000 tokens',
        `${'█'.repeat(32)}${'░'.repeat(8)}`,
        'Plan compaction within 10 operations: pick what to drop or summarise.',
        'source: recorded usage: Claude Code usage (input + cache creation + cache read)',
        'window: 200,000 (model preset: Claude Sonnet 4/4.5) · model claude-sonnet-4-5-20250929',
        'largest items (first candidates to compact):',
        '  1,021 tokens  line 5      tool result (Bash)  > shop@1.4.0 test',
        '    994 tokens  line 11     tool result (Bash)  > shop@1.4.0 test',
        '    280 tokens  line 7      tool result (Read)  1→import { sign } from "./jwt";',
        '     42 tokens  line 8      tool call (Edit)  {"file_path":"/home/dev/shop/src/auth/refresh.ts","old_stri…',
        '     35 tokens  line 13     assistant message  The test passes now.',
        'next:',
        '  memctx flush --transcript claude-session.jsonl  # save the goal, decisions and next steps to memory before they are compacted away',
        '  /compact  # in Claude Code, within the next few operations',
        '',
      ].join('\n'),
    );
  });
  it('gives the same figures as JSON', async () => {
    const { code, data } = await json(['status', 'claude-session.jsonl']);
    expect(code).toBe(0);
    expect(data).toEqual({
      file: 'claude-session.jsonl',
      format: 'claude',
      level: 'yellow',
      percent: 80.7,
      used: 161506,
      window: 200000,
      windowSource: 'model preset: Claude Sonnet 4/4.5',
      source: 'recorded',
      recorded: { kind: 'claude-usage' },
      model: 'claude-sonnet-4-5-20250929',
      largest: expect.arrayContaining([expect.objectContaining({ line: 5, kind: 'tool_result', tokens: 1021, toolName: 'Bash' })]),
      advice: 'Plan compaction within 10 operations: pick what to drop or summarise.',
      next: [
        { command: 'memctx flush --transcript claude-session.jsonl', why: 'save the goal, decisions and next steps to memory before they are compacted away' },
        { command: '/compact', why: 'in Claude Code, within the next few operations' },
      ],
      thresholds: { yellow: 80, orange: 90, red: 95 },
      notes: [],
    });
  });
  it('uses compactMetadata.postTokens after a compaction', async () => {
    expect((await json(['status', 'claude-compacted.jsonl'])).data).toMatchObject({ used: 23498, level: 'green', recorded: { kind: 'claude-compact-boundary' } });
  });
  it('reads Codex token_count with the recorded window', async () => {
    expect((await json(['status', 'codex-session.jsonl'])).data).toMatchObject({ format: 'codex', level: 'orange', percent: 90, used: 245000, window: 272000, windowSource: 'recorded by the agent', model: 'gpt-5-codex' });
  });
  it('counts an OpenAI messages file and lists the five largest items with lines', async () => {
    const { data } = await json(['status', 'openai-messages.json']);
    expect(data).toMatchObject({ format: 'openai', source: 'counted', encoding: 'o200k_base', items: 9, used: 644, level: 'green' });
    expect(data.largest.map((c: { line: number; tokens: number; kind: string }) => [c.line, c.kind, c.tokens])).toEqual([[24, 'tool_result', 539], [29, 'tool_call', 33], [29, 'message', 23], [2, 'message', 11], [10, 'tool_call', 11]]);
    const text = (await run(['status', 'openai-messages.json'])).stdout;
    expect(text).toContain('source: counted with o200k_base (9 items, openai)\n');
    expect(text).toContain('largest items (first candidates to compact):\n  539 tokens  line 24     tool result (read_file)  1: const pool = createPool({ max: 1 }); // connection 0\n');
  });
  it('counts plain text and Markdown', async () => {
    expect((await json(['status', 'session.md'])).data).toMatchObject({ format: 'text', source: 'counted', used: 149, items: 5 });
    expect((await json(['status', 'session.md', '--encoding', 'cl100k_base'])).data).toMatchObject({ encoding: 'cl100k_base' });
  });
  it('counts instead of using recorded usage with --count, and reads a forced format', async () => {
    const counted = (await json(['status', 'claude-session.jsonl', '--count'])).data;
    expect(counted).toMatchObject({ source: 'counted', format: 'claude', items: 12 });
    expect(counted.used).toBeGreaterThan(1000);
    expect((await json(['status', 'claude-session.jsonl', '--format', 'text'])).data).toMatchObject({ source: 'counted', format: 'text', items: 1 });
    expect((await run(['status', 'claude-session.jsonl', '--format', 'yaml'])).code).toBe(2);
  });
  it('reads a transcript from stdin with -', async () => {
    const input = readFileSync(join(dir, 'codex-session.jsonl'), 'utf8');
    expect((await json(['status', '-'], { input })).data).toMatchObject({ file: 'stdin', used: 245000, window: 272000 });
  });
  it('takes the window from --window (with k/m suffixes) or --model', async () => {
    expect((await json(['status', 'claude-session.jsonl', '--window', '1m'])).data).toMatchObject({ window: 1_000_000, level: 'green', windowSource: '--window' });
    expect((await json(['status', 'claude-session.jsonl', '--window', '175000'])).data).toMatchObject({ window: 175_000, level: 'orange' });
    expect((await json(['status', 'claude-session.jsonl', '--model', 'gpt-4o'])).data).toMatchObject({ window: 128_000, level: 'red', percent: 126.1 });
    expect((await json(['status', 'claude-session.jsonl', '--model', 'sonnet[1m]'])).data).toMatchObject({ window: 1_000_000 });
  });
  it('refuses a window of 0, a negative one, or a word (exit 2)', async () => {
    for (const w of ['0', '-5', 'lots', '1.5']) {
      const r = await run(['status', 'claude-session.jsonl', `--window=${w}`]);
      expect([w, r.code]).toEqual([w, 2]);
      expect(r.stderr).toContain(`--window must be a positive number of tokens, got "${w}"`);
    }
    expect((await run(['status', 'claude-session.jsonl', '--window', '-5'])).code).toBe(2);
  });
  it('refuses an unknown --model (exit 2)', async () => {
    const r = await run(['status', 'claude-session.jsonl', '--model', 'llama-9']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown --model "llama-9"');
  });
  it('exits 1 at or above --fail-on', async () => {
    expect((await run(['status', 'claude-session.jsonl', '--fail-on', 'yellow'])).code).toBe(1);
    expect((await run(['status', 'claude-session.jsonl', '--fail-on', 'orange'])).code).toBe(0);
    expect((await run(['status', 'codex-session.jsonl', '--fail-on', 'orange'])).code).toBe(1);
    expect((await run(['status', 'codex-session.jsonl', '--fail-on', 'red'])).code).toBe(0);
    const bad = await run(['status', 'codex-session.jsonl', '--fail-on', 'green']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--fail-on must be one of yellow, orange, red, got "green"');
  });
  it('takes --thresholds and refuses bad ones', async () => {
    expect((await json(['status', 'claude-session.jsonl', '--thresholds', '50,60,70'])).data).toMatchObject({ level: 'red', thresholds: { yellow: 50, orange: 60, red: 70 } });
    for (const t of ['90,80,95', '80,90', 'a,b,c', '80,90,120']) expect([t, (await run(['status', 'claude-session.jsonl', '--thresholds', t])).code]).toEqual([t, 2]);
  });
  it('finds the latest Claude Code session of the working directory when no file is given', async () => {
    const home = tempDir();
    const project = join(home, '.claude', 'projects', dir.replace(/[^A-Za-z0-9]/g, '-'));
    expect((await run(['status'], { env: { HOME: home } })).code).toBe(2);
    mkdirSync(project, { recursive: true });
    writeFileSync(join(project, 'old.jsonl'), jsonl(assistant('a', u(1000))));
    writeFileSync(join(project, 'new.jsonl'), jsonl(assistant('b', u(2000))));
    const later = new Date(Date.now() + 5000);
    writeFileSync(join(project, 'new.jsonl'), jsonl(assistant('b', u(2000))));
    utimesSync(join(project, 'new.jsonl'), later, later);
    expect((await json(['status'], { env: { HOME: home } })).data).toMatchObject({ used: 2000, file: join(project, 'new.jsonl') });
    removeDir(home);
  });
});
