import { describe, expect, it } from 'vitest';
import { tiktoken } from '../../helpers/tiktoken.js';
import { parseMemoryText } from '../../../src/kernel/store/parse.js';
import { loadTokenCounter } from '../../../src/kernel/tokens/index.js';
import { builtInTemplate } from '../../../src/kernel/summary/templates.js';
import { groupChangedLines } from '../../../src/kernel/summary/changed.js';
import { planFlush, plannedPath, resolveFields, slugify, fileStamp } from '../../../src/kernel/summary/record.js';

const NOW = new Date('2026-11-21T15:30:12.345Z');

const session = builtInTemplate('session');

describe('planFlush', () => {
  it('counts the file exactly (o200k_base, checked against js-tiktoken)', async () => {
    const counter = await loadTokenCounter();
    const plan = planFlush({ template: session, values: { goal: ['Move auth sessions to JWT <|endoftext|>'], progress: ['done'], decisions: [], changedFiles: [], blockers: [], nextSteps: [] }, now: NOW, counter });
    expect(plan.tokens).toBe(tiktoken.o200k_base.encode(plan.text, [], []).length);
    expect(plan.tokens).toBe(plan.originalTokens);
    expect(plan.empty).toEqual(['Decisions', 'Changed Files', 'Blockers', 'Next Steps']);
    const file = parseMemoryText('sessions/x.md', plan.text, { mtimeMs: 0, size: 0 });
    expect(file.data).toEqual({ name: 'Session 2026-11-21 15:30', description: 'Move auth sessions to JWT <|endoftext|>', type: 'project', kind: 'session', created: '2026-11-21T15:30:12Z', updated: '2026-11-21T15:30:12Z' });
    expect(plannedPath(plan)).toBe('sessions/2026-11-21T153012-move-auth-sessions-to-jwt-endoftext.md');
  });

  it('over the maximum groups changed files by folder before any item is dropped; strict keeps everything', async () => {
    const counter = await loadTokenCounter();
    const files = Array.from({ length: 80 }, (_, i) => `src/module${i}/file${i}.ts — handler number ${i} (start${i}, stop${i})`);
    const values = { goal: ['Big session'], progress: ['p1', 'p2'], decisions: ['Use JWT because keys rotate'], changedFiles: files, blockers: [], nextSteps: ['n'] };
    const plan = planFlush({ template: session, values, now: NOW, counter });
    expect(plan.originalTokens).toBeGreaterThan(650);
    expect(plan.tokens).toBeLessThanOrEqual(500);
    expect(plan.tokens).toBe(counter.count(plan.text));
    // every file still covered, every other item kept
    expect(plan.cuts).toEqual([{ field: 'changedFiles', what: 'grouped', kept: 1, total: 80 }]);
    expect(plan.values.changedFiles).toEqual(['src/ (80 files)']);
    expect(plan.values.progress).toEqual(['p1', 'p2']);
    expect(plan.values.decisions).toEqual(values.decisions);
    expect(plan.cutLines).toEqual(['Changed Files: grouped by folder into 1 line (80 before)']);
    // The lesser grouping (the files without their summaries) would not have fitted the target.
    const lesser = planFlush({ template: session, values: { ...values, changedFiles: groupChangedLines(files, 2) }, now: NOW, counter, max: 10_000 });
    expect(lesser.tokens).toBeGreaterThan(500);
    const strict = planFlush({ template: session, values, now: NOW, counter, strict: true });
    expect(strict.overMax).toBe(true);
    expect(strict.cuts).toEqual([]);
    expect(strict.values.changedFiles).toEqual(files);
  });

  it('applies the 50-line rule before counting', async () => {
    const counter = await loadTokenCounter();
    const log = Array.from({ length: 120 }, (_, i) => (i === 70 ? 'npm ERR! code ELIFECYCLE' : `step ${i}`)).join('\n');
    const plan = planFlush({ template: session, values: { goal: ['g'], progress: [log] }, now: NOW, counter });
    expect(plan.summarized).toEqual([{ field: 'progress', total: 120, omitted: 109 }]);
    expect(plan.text).toContain('  npm ERR! code ELIFECYCLE\n  [… 109 of 120 lines left out]');
  });

  it('decision records carry the ID, importance and tags', async () => {
    const counter = await loadTokenCounter();
    const decision = builtInTemplate('decision');
    const values = resolveFields(decision, { decision: ['Use RS256'], rationale: ['Keys rotate'], tags: ['auth, security'], importance: ['8'] }).values;
    const plan = planFlush({ template: decision, values, now: NOW, counter, id: 'DEC-2026-11-21-004' });
    const file = parseMemoryText('decisions/x.md', plan.text, { mtimeMs: 0, size: 0 });
    expect(file.data).toMatchObject({ name: 'DEC-2026-11-21-004', description: 'Use RS256', kind: 'decision', id: 'DEC-2026-11-21-004', importance: 8, tags: ['auth', 'security'] });
    expect(file.body.startsWith('\n**ID:** DEC-2026-11-21-004\n\n## Decision\n\nUse RS256\n')).toBe(true);
    expect(plannedPath(plan, 'DEC-2026-11-21-004')).toBe('decisions/DEC-2026-11-21-004-use-rs256.md');
  });

  it('slugs and stamps', () => {
    expect(slugify('Crème brûlée: fix the über-parser!', 'session')).toBe('creme-brulee-fix-the-uber-parser');
    expect(slugify('日本語', 'session')).toBe('session');
    expect(slugify('a'.repeat(80), 'x')).toHaveLength(48);
    expect(fileStamp(NOW)).toBe('2026-11-21T153012');
  });
});
