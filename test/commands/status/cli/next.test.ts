import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMemctx } from '../../../helpers/run.js';
import { copyFixture, removeDir, tempDir } from '../../../helpers/cli.js';

interface Report {
  level: string;
  source: string;
  largest: { line: number; kind: string; tokens: number; toolName?: string }[];
  largestScope?: { lastBytes: number };
  next: { command: string; why: string }[];
}

describe('status says what to do next when the usage is recorded', () => {
  let root: string;
  let dir: string;
  const status = async (args: string[]) => {
    const r = await runMemctx(['--json', ...args], { cwd: dir });
    expect(r.stderr).toBe('');
    return JSON.parse(r.stdout) as Report;
  };
  beforeAll(() => {
    root = tempDir();
    dir = copyFixture('transcripts', root);
  });
  afterAll(() => removeDir(root));

  it('Claude Code usage at yellow: the largest items and the exact commands, with the --dir used', async () => {
    const r = await runMemctx(['--dir', 'my mem', 'status', 'claude-session.jsonl'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('largest items (first candidates to compact):\n  1,021 tokens  line 5      tool result (Bash)');
    expect(r.stdout).toContain("next:\n  memctx --dir 'my mem' flush --transcript claude-session.jsonl  # save the goal, decisions and next steps to memory before they are compacted away\n  /compact  # in Claude Code, within the next few operations\n");
  });

  it('at orange the advice is to compact now', async () => {
    const report = await status(['status', 'claude-session.jsonl', '--window', '175k']);
    expect(report.level).toBe('orange');
    expect(report.next.map((s) => s.command)).toEqual(['memctx flush --transcript claude-session.jsonl', '/compact']);
    expect(report.next[1].why).toBe('in Claude Code, now');
  });

  it('green: nothing to do, and the transcript is not counted', async () => {
    const report = await status(['status', 'claude-session.jsonl', '--window', '1m']);
    expect(report.level).toBe('green');
    expect(report.next).toEqual([]);
    expect(report.largest).toEqual([]);
  });

  it('Codex: memctx compact instead of /compact', async () => {
    const report = await status(['status', 'codex-session.jsonl', '--window', '1000']);
    expect(report.source).toBe('recorded');
    expect(report.next.map((s) => s.command)).toEqual(['memctx flush --transcript codex-session.jsonl', 'memctx compact codex-session.jsonl --out compacted.md']);
    expect(report.largest.length).toBeGreaterThan(0);
  });

  it('a transcript over 4 MB: the largest items of its last 4 MB, without line numbers', async () => {
    const lines = readFileSync(join(dir, 'claude-session.jsonl'), 'utf8').trimEnd().split('\n');
    // Ordinary words, not one 100 KB run of a letter: a run that long is one piece for the tokenizer, slow to
    // count and not what this test is about (test/kernel/tokens/bpe.test.ts counts long pieces).
    const filler = JSON.stringify({ type: 'user', isSidechain: false, message: { role: 'user', content: `old text ${'the build log said nothing new '.repeat(3_300).slice(0, 100_000)}` } });
    writeFileSync(join(dir, 'big.jsonl'), `${[lines[0], ...Array.from({ length: 50 }, () => filler), ...lines.slice(1)].join('\n')}\n`);
    // How fast a tail read is: bench/status.bench.ts (status on a 100 MB transcript).
    const report = await status(['status', 'big.jsonl']);
    expect(report.largestScope!.lastBytes).toBeGreaterThanOrEqual(4 * 1024 * 1024);
    expect(report.largestScope!.lastBytes).toBeLessThan(5 * 1024 * 1024 + 200_000);
    expect(report.largest[0].kind).toBe('message');
    const text = await runMemctx(['status', 'big.jsonl'], { cwd: dir });
    expect(text.stdout).toMatch(/largest items in the last \d+ MB of the transcript \(first candidates to compact\):\n +[\d,]+ tokens  user message/);
  });
});

describe('the status line says what to do from orange on', () => {
  it('orange: /compact now; yellow: only the level', async () => {
    const cw = (pct: number) => JSON.stringify({ model: { display_name: 'Opus' }, context_window: { context_window_size: 200000, used_percentage: pct } });
    const orange = await runMemctx(['status', '--statusline'], { cwd: '/', input: cw(91) });
    expect(orange.stdout).toBe('● 91% 182k/200k · Opus orange · /compact now\n');
    const yellow = await runMemctx(['status', '--statusline'], { cwd: '/', input: cw(84) });
    expect(yellow.stdout).toBe('● 84% 168k/200k · Opus yellow\n');
  });
});
