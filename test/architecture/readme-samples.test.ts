import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, REPO, tempDir } from '../helpers/cli.js';
import { runMemctx } from '../helpers/run.js';
import { docPages } from '../helpers/readme.js';

/**
 * The sample reports of the README and docs/ are real output: each block is compared with what the command beside
 * it prints (on a fixed date, since recency scores move with the clock). A `…` line stands for rows
 * left out of the sample; the lines after it must still be lines of the real report.
 */
const PAGES = docPages(REPO).map((page) => readFileSync(join(REPO, page), 'utf8'));
const NOW = new Date('2026-11-24T12:00:00Z');

/** The plain fenced block that follows the first line containing `after`, on the first page holding it. */
function sampleAfter(after: string): string[] {
  const page = PAGES.find((text) => text.includes(after));
  expect(page, after).toBeDefined();
  const block = /\n\n```\n([\s\S]*?)\n```/.exec(page!.slice(page!.indexOf(after)));
  return block![1].split('\n');
}

function expectSample(sample: string[], report: string): void {
  const lines = report.replace(/\n$/, '').split('\n');
  const gap = sample.indexOf('…');
  const head = gap === -1 ? sample : sample.slice(0, gap);
  expect(lines.slice(0, head.length)).toEqual(head);
  for (const line of gap === -1 ? [] : sample.slice(gap + 1)) expect(lines, lines.join('\n')).toContain(line);
}

describe("the sample reports of the README and docs/", () => {
  const cwd = tempDir();
  for (const name of ['seed-memory', 'transcripts']) cpSync(join(FIXTURES, name), join(cwd, 'fixtures', name), { recursive: true, filter: (s) => !s.endsWith('.memctx') });

  it('pack --task … --budget 1500 on fixtures/seed-memory', async () => {
    const out = await runMemctx(['--dir', 'fixtures/seed-memory', 'pack', '--task', 'fix the Safari login loop', '--budget', '1500'], { cwd, now: NOW });
    expect(out.code).toBe(0);
    expectSample(sampleAfter('then the totals (this sample'), out.stderr);
  });

  it('compact fixtures/transcripts/claude-long.jsonl --out compacted.md', async () => {
    const out = await runMemctx(['compact', 'fixtures/transcripts/claude-long.jsonl', '--out', 'compacted.md'], { cwd, now: NOW });
    expect(out.code).toBe(0);
    expectSample(sampleAfter('npx memctx compact fixtures/transcripts/claude-long.jsonl --out compacted.md\n```'), out.stderr);
  });
});
