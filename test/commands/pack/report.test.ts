import { describe, expect, it } from 'vitest';
import { Chalk } from 'chalk';
import { renderPackReport } from '../../../src/commands/pack/report.js';
import type { PackResult, PackedFile } from '../../../src/kernel/bundle/select.js';

const chalk = new Chalk({ level: 0 });

function result(count: number): PackResult {
  const files = Array.from({ length: count }, (_, i) => ({ path: `f${i}.md`, name: `f${i}`, score: 50, relevance: 20, recency: 10, dependency: 20, task: 0, reasons: [], planned: 'index', tier: 'index', tokens: 10, bundleTokens: 0 }) as unknown as PackedFile);
  return { text: '', tokens: 0, budget: 100, format: 'markdown', encoding: 'o200k_base', fullTokens: 0, indexLines: { total: 0, included: 0 }, files, leftOut: { files: [], indexLines: 0 }, pinnedLeftOut: [], totalFileTokens: 0, saved: 0 };
}

describe('pack report rows', () => {
  it('lists every file of a ranking of up to 60', () => {
    const report = renderPackReport(result(60), chalk, { fileCount: 60 });
    expect(report.split('\n').filter((l) => / f\d+\.md$/.test(l))).toHaveLength(60);
    expect(report).not.toContain('more files');
  });

  it('shows the first 50 of a longer ranking and how many more there are', () => {
    const report = renderPackReport(result(2000), chalk, { fileCount: 2000 });
    const rows = report.split('\n').filter((l) => / f\d+\.md$/.test(l));
    expect(rows).toHaveLength(50);
    expect(rows.at(-1)).toMatch(/ f49\.md$/);
    expect(report).toContain('… and 1,950 more files in rank order (memctx pack --json lists them all)\n');
  });
});
