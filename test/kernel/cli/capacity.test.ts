// cli/capacity.ts: the `status` report and compact's report, as printed (test/commands/status/cli.test.ts runs status on transcripts).
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { renderCompactReport, renderStatus } from '../../../src/kernel/cli/capacity.js';
import type { StatusReport } from '../../../src/kernel/capacity/levels.js';

const plain = new Chalk({ level: 0 });
const BASE: StatusReport = {
  file: 'session.jsonl', format: 'claude', level: 'orange', percent: 89.96, used: 179_920, window: 200_000, windowSource: 'model preset', model: 'claude-opus-4-1',
  source: 'recorded', recorded: { kind: 'claude-usage', line: 12 }, largest: [], advice: 'compact now', thresholds: { yellow: 70, orange: 85, red: 95 }, notes: [],
};

describe('renderStatus', () => {
  it('recorded usage: file, level, percent rounded down, figures, a 40-cell bar, advice, source and window', () => {
    expect(renderStatus(BASE, plain)).toBe([
      'session.jsonl  ORANGE  89.9%  179,920 / 200,000 tokens',
      `${'█'.repeat(36)}${'░'.repeat(4)}`,
      'compact now',
      'source: recorded usage: Claude Code usage (input + cache creation + cache read), line 12',
      'window: 200,000 (model preset) · model claude-opus-4-1',
      '',
    ].join('\n'));
  });

  it('counted figures: the largest items with their lines, then the next commands', () => {
    const report: StatusReport = {
      ...BASE, level: 'green', percent: 1, used: 2000, source: 'counted', recorded: undefined, encoding: 'o200k_base', items: 1, format: 'text', model: undefined, advice: 'plenty of room',
      largest: [{ line: 3, role: 'tool', kind: 'tool_result', toolName: 'Bash', tokens: 1500, preview: 'npm test' }, { line: 10, role: 'user', kind: 'message', tokens: 20, preview: '' }],
      next: [{ command: 'memctx compact session.jsonl', why: 'shrink the tool output' }],
    };
    expect(renderStatus(report, plain).split('\n').slice(3)).toEqual([
      'source: counted with o200k_base (1 item, text)',
      'window: 200,000 (model preset)',
      'largest items (first candidates to compact):',
      '  1,500 tokens  line 3      tool result (Bash)  npm test',
      '     20 tokens  line 10     user message',
      'next:',
      '  memctx compact session.jsonl  # shrink the tool output',
      '',
    ]);
  });

  it('largest items of the transcript\'s last bytes: the scope named, no line numbers', () => {
    const report: StatusReport = { ...BASE, largest: [{ line: 0, role: 'assistant', kind: 'tool_call', toolName: 'Edit', tokens: 300, preview: '' }], largestScope: { lastBytes: 2_000_000 } };
    expect(renderStatus(report, plain).split('\n').slice(5, 7)).toEqual(['largest items in the last 2 MB of the transcript (first candidates to compact):', '  300 tokens  tool call (Edit)']);
  });
});

describe('renderCompactReport', () => {
  const report = { name: 's.jsonl', tokensBefore: 12_000, tokensAfter: 3_000, saved: 9_000, savedPercent: 75, missing: 0, result: { duplicates: 1, condensed: 2, confirmations: 0, marked: [], verbatimFrom: 40, items: 50 } };

  it('what was saved, what was shortened, and what was kept verbatim', () => {
    expect(renderCompactReport({ ...report, out: 's.compact.jsonl' }, plain)).toBe(
      'compacted s.jsonl → s.compact.jsonl: 12,000 → 3,000 tokens (saved 9,000, 75.0%)\n  1 repeated tool output collapsed · 2 long outputs condensed · 0 confirmations shortened\n  kept verbatim: 0 marked lines, the last exchanges from line 40\n',
    );
  });

  it('says whether the marked lines survived, and why nothing else was kept', () => {
    const all = renderCompactReport({ ...report, result: { ...report.result, marked: [1], verbatimFrom: undefined } }, plain).split('\n');
    expect(all.slice(2)).toEqual(['  kept verbatim: 1 marked line, every exchange (there are no more than --keep-last)', '  all 1 marked lines survived', '']);
    const lost = renderCompactReport({ ...report, missing: 1, result: { ...report.result, marked: [1, 2], verbatimFrom: undefined, items: 0 } }, plain).split('\n');
    expect(lost.slice(2)).toEqual(['  kept verbatim: 2 marked lines, nothing (the transcript is empty)', '  1 of 2 marked lines did not survive', '']);
  });
});
