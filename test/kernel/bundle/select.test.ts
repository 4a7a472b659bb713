import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { packBundle, type PackInput } from '../../../src/kernel/bundle/select.js';
import { scoreFiles } from '../../../src/kernel/rank/score.js';
import { fileText, FORMATS, type BundleFormat } from '../../../src/kernel/bundle/render.js';
import { loadTokenCounterSync } from '../../../src/kernel/tokens/index.js';
import type { MemoryFile } from '../../../src/kernel/store/types.js';
import { NOW, hoursAgo, memory } from '../../helpers/pack-files.js';

const o200k = loadTokenCounterSync('o200k_base');
const cl100k = loadTokenCounterSync('cl100k_base');
const count = (t: string) => o200k.count(t);

function pack(files: MemoryFile[], budget: number, extra: Partial<PackInput> = {}) {
  const scores = scoreFiles(files, { now: NOW, task: 'auth' });
  const indexLines = ['## Project', ...files.map((f) => `- [${f.name}](${f.path}) — ${f.description}`)];
  return packBundle({ files, scores, indexLines, budget, format: 'markdown', encoding: 'o200k_base', count, ...extra });
}

const tierOf = (result: ReturnType<typeof pack>, path: string) => result.files.find((f) => f.path === path)!;

// With --task auth: hot 50 relevance (capped) + 30 recency = 80; warm 50 + 0 = 50; cold 15 (recent only).
const hot = memory('hot.md', { name: 'Hot', description: 'auth decision', kind: 'decision', updated: hoursAgo(0.5) }, 'Auth uses JWT.\n');
const warm = memory('warm.md', { name: 'Warm', description: 'auth notes', kind: 'decision', updated: '2020-01-01' }, 'Older auth notes.\n');
const cold = memory('cold.md', { name: 'Cold', description: 'unrelated', updated: '2020-01-01' }, 'Nothing.\n');
const pinned = memory('pin.md', { name: 'Pin', description: 'rules', pinned: true, updated: '2020-01-01' }, 'Never push to main.\n');

describe('tiers', () => {
  it('loads every file in full when all fit: pinned first, then what the task matches, then by score', () => {
    const result = pack([cold, warm, hot, pinned], 5000);
    expect(result.files.map((f) => `${f.path}:${f.tier}`).slice(2)).toEqual(['pin.md:full', 'cold.md:full']);
    expect(result.files.slice(0, 2).map((f) => f.path).sort()).toEqual(['hot.md', 'warm.md']);
    expect(tierOf(result, 'hot.md')).toMatchObject({ score: 80, planned: 'full' });
    expect(tierOf(result, 'warm.md')).toMatchObject({ score: 50, planned: 'description' });
    expect(tierOf(result, 'cold.md')).toMatchObject({ score: 15, planned: 'index' });
    const at = (path: string) => result.text.indexOf(`### ${path}`);
    expect(at('pin.md')).toBeLessThan(at('hot.md'));
    expect(Math.max(at('hot.md'), at('warm.md'))).toBeLessThan(at('cold.md'));
    expect(result.leftOut).toEqual({ files: [], indexLines: 0 });
    expect(result.tokens).toBe(count(result.text));
  });

  it('fills the budget in rank order, skipping a file too large for one that fits, and lists the rest by description', () => {
    const big = memory('big.md', { name: 'Big', description: 'large notes', updated: '2020-01-01' }, `${'Some detail sentence here. '.repeat(120)}\n`);
    const probe = pack([hot, big, cold], 100_000);
    const budget = probe.tokens - 200;
    const result = pack([hot, big, cold], budget);
    expect(tierOf(result, 'hot.md').tier).toBe('full');
    expect(tierOf(result, 'cold.md').tier).toBe('full');
    expect(tierOf(result, 'big.md')).toMatchObject({ tier: 'description', note: 'did not fit in full: listed by description' });
    expect(result.tokens).toBeLessThanOrEqual(budget);
  });

  it('notes why a file is only described or only listed: larger than the whole budget, did not fit in full, did not fit at all', () => {
    const huge = memory('huge.md', { name: 'Huge', description: 'old notes', updated: '2020-01-01' }, `${'word line\n'.repeat(3000)}\n`);
    const mid = memory('mid.md', { name: 'Mid', description: 'more notes', updated: '2020-01-01' }, `${'Some detail sentence here. '.repeat(60)}\n`);
    const notes = (budget: number) => pack([hot, huge, mid], budget).files.map((f) => [f.path, f.tier, f.note]);
    expect(notes(400)).toEqual([
      ['hot.md', 'full', undefined],
      ['huge.md', 'description', 'larger than the whole budget: listed by description'],
      ['mid.md', 'description', 'did not fit in full: listed by description'],
    ]);
    expect(notes(180)).toEqual([
      ['hot.md', 'full', undefined],
      ['huge.md', 'index', 'did not fit the budget'],
      ['mid.md', 'index', 'did not fit the budget'],
    ]);
  });

  it('puts a wanted file larger than the whole budget in as its head with a pointer to the rest', () => {
    const huge = memory('huge.md', { name: 'Huge', description: 'the whole auth history', pinned: true, updated: '2020-01-01' }, `${'word line\n'.repeat(3000)}END-OF-FILE\n`);
    const result = pack([huge], 400);
    const file = tierOf(result, 'huge.md');
    expect(file).toMatchObject({ tier: 'head', note: 'larger than the whole budget: its head, with a pointer to the rest' });
    const left = Number(/\[… (\d+) more tokens of this file left out: memctx show huge\.md\]/.exec(result.text)?.[1]);
    expect(left).toBeGreaterThan(file.tokens - 400);
    expect(result.text).not.toContain('END-OF-FILE');
    expect(result.tokens).toBe(count(result.text));
    expect(result.tokens).toBeLessThanOrEqual(400);
    expect(result.pinnedLeftOut).toEqual(['huge.md']);
  });

  it('holds what fits of the index when the budget is smaller than it, and says what was left out', () => {
    const indexLines = ['## Project', ...Array.from({ length: 40 }, (_, i) => `- [Note ${i}](n${i}.md) — a description of note number ${i}`)];
    const packIndex = (budget: number) => packBundle({ files: [], scores: [], indexLines, budget, format: 'markdown', encoding: 'o200k_base', count });
    expect(packIndex(100_000).indexLines).toEqual({ total: 41, included: 41 });
    const result = packIndex(150);
    expect(result.tokens).toBe(count(result.text));
    expect(result.tokens).toBeLessThanOrEqual(150);
    expect(result.indexLines.included).toBeGreaterThan(0);
    expect(result.indexLines.included).toBeLessThan(41);
    expect(result.leftOut.indexLines).toBe(41 - result.indexLines.included);
    expect(result.text).toContain(`## Left out\n\nLeft out to stay within 150 tokens: ${result.leftOut.indexLines} index lines.`);
    expect(result.text.startsWith('# Memory bundle\n\n## Index\n\n### Project\n\n- [Note 0](n0.md)')).toBe(true);
  });

  it('never packs a superseded file in full, and marks its description', () => {
    const scores = scoreFiles([hot, warm], { now: NOW, task: 'auth', superseded: new Map([['warm.md', 'superseded by hot.md']]) });
    const result = packBundle({ files: [hot, warm], scores, indexLines: [], budget: 5000, format: 'markdown', encoding: 'o200k_base', count });
    expect(tierOf(result, 'warm.md')).toMatchObject({ tier: 'description', note: 'superseded by hot.md: never packed in full' });
    expect(result.text).toContain('- `warm.md` — auth notes [superseded: superseded by hot.md] (score');
    expect(tierOf(result, 'hot.md').tier).toBe('full');
  });

  it('gives an empty bundle when not even the frame fits', () => {
    const result = pack([hot], 3);
    expect(result).toMatchObject({ text: '', tokens: 0, leftOut: { files: ['hot.md'], indexLines: 2 } });
    expect(tierOf(result, 'hot.md').tier).toBe('none');
  });

  it('packs an empty memory directory', () => {
    const result = packBundle({ files: [], scores: [], indexLines: ['_No memory files yet: add one with `memctx add`._'], budget: 1000, format: 'markdown', encoding: 'o200k_base', count });
    expect(result.text).toBe('# Memory bundle\n\n## Index\n\n_No memory files yet: add one with `memctx add`._\n');
    expect(result.tokens).toBe(count(result.text));
    expect(result.files).toEqual([]);
    expect(result.totalFileTokens).toBe(0);
  });

  it('loads profile picks first, in pick order, like pinned files', () => {
    const result = pack([hot, warm, cold], 5000, { picks: ['cold.md', 'warm.md'] });
    expect(result.files.filter((f) => f.tier === 'full').map((f) => f.path).sort()).toEqual(['cold.md', 'hot.md', 'warm.md']);
    expect(result.text.indexOf('### cold.md')).toBeLessThan(result.text.indexOf('### warm.md'));
    expect(result.text.indexOf('### warm.md')).toBeLessThan(result.text.indexOf('### hot.md'));
  });

  it('reports tokens saved against loading every file in full', () => {
    const result = pack([hot, warm, cold], 5000);
    const all = [hot, warm, cold].reduce((n, f) => n + count(fileText(f)), 0);
    expect(result.totalFileTokens).toBe(all);
    expect(result.saved).toBe(all - result.tokens);
  });

  it('counts special-token strings in a file as ordinary text', () => {
    const special = memory('sp.md', { name: 'Special', description: 'auth', kind: 'decision', updated: hoursAgo(0.1) }, 'Markers <|endoftext|> and <|im_start|>user stay text.\n');
    const result = pack([special], 2000);
    expect(tierOf(result, 'sp.md').tier).toBe('full');
    expect(result.text).toContain('<|endoftext|>');
    expect(result.tokens).toBe(count(result.text));
  });
});

describe('formats', () => {
  it('writes XML with one <memory> element per file, escaped', () => {
    const amp = memory('amp.md', { name: 'A & B', description: 'auth <tags>', kind: 'decision', updated: hoursAgo(0.1) }, 'if (a < b && c) {}\n');
    const result = pack([amp, warm], 5000, { format: 'xml', taskOnly: true, focus: [] });
    const big = pack([amp, warm], 5000, { format: 'xml', picks: [] });
    expect(big.text).toMatch(/<memory path="warm.md" [^>]*tier="full">/);
    expect(result.text.startsWith('<memory-bundle encoding="o200k_base" budget="5000">\n<index>\n')).toBe(true);
    expect(result.text).toContain('<memory path="amp.md" name="A &amp; B" type="other" kind="decision" score="80" tier="full">\n---\n');
    expect(result.text).toContain('if (a &lt; b &amp;&amp; c) {}\n</memory>\n');
    expect(result.text).toMatch(/<memory path="warm.md" [^>]*tier="full">/);
    expect(result.text.endsWith('</memory-bundle>\n')).toBe(true);
    expect(result.tokens).toBe(count(result.text));
  });

  it('writes JSON that parses, files in one array', () => {
    const result = pack([hot, warm, cold], 5000, { format: 'json' });
    const doc = JSON.parse(result.text);
    expect(doc.bundle).toBe('memctx');
    expect(doc.budget).toBe(5000);
    expect(doc.index[0]).toBe('## Project');
    expect(doc.files.map((f: { path: string; tier: string }) => `${f.path}:${f.tier}`)).toEqual(['warm.md:full', 'hot.md:full', 'cold.md:full']);
    expect(doc.files[1].content).toBe(fileText(hot));
    const scores = scoreFiles([hot, cold], { now: NOW, superseded: new Map([['cold.md', 'status: superseded']]) });
    const described = JSON.parse(packBundle({ files: [hot, cold], scores, indexLines: [], budget: 5000, format: 'json', encoding: 'o200k_base', count }).text);
    expect(described.files[1]).toEqual({ path: 'cold.md', name: 'Cold', type: 'other', kind: null, score: 15, tier: 'description', description: 'unrelated', load: 'memctx show cold.md', superseded: 'status: superseded' });
    expect(result.tokens).toBe(count(result.text));
  });
});

describe('the budget is a hard cap (property, counting the real output)', () => {
  const text = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 40 }),
    fc.constantFrom('<|endoftext|>', '\n\n  indented', '/path/start', '```code```', '& < >', '🙂 日本語', "it's"),
    fc.lorem({ maxCount: 30 }),
  );
  const file = fc.record({
    name: fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ]{0,20}$/),
    description: fc.lorem({ maxCount: 8 }),
    kind: fc.constantFrom('decision', 'issue', 'note', 'learning', 'state'),
    importance: fc.integer({ min: 1, max: 10 }),
    pinned: fc.boolean(),
    hours: fc.integer({ min: 0, max: 400 }),
    body: fc.array(text, { maxLength: 12 }).map((parts) => parts.join('\n')),
    link: fc.nat(20),
  });

  // One test per encoding, 125 runs each (250 in all, as when one test drew the encoding): each stays
  // well inside its timeout on a loaded machine.
  it.each(['o200k_base', 'cl100k_base'] as const)('never exceeds the budget in any format, and the reported count is exact (%s)', (encoding) => {
    fc.assert(
      fc.property(
        fc.array(file, { maxLength: 12 }),
        fc.integer({ min: 1, max: 2500 }),
        fc.constantFrom(...FORMATS),
        fc.option(fc.lorem({ maxCount: 4 }), { nil: undefined }),
        (specs, budget, format: BundleFormat, task) => {
          const files = specs.map((s, i) =>
            memory(`dir${i % 3}/f${i}.md`, { name: s.name, description: s.description || 'x', kind: s.kind, importance: s.importance, pinned: s.pinned, updated: hoursAgo(s.hours), related: [`dir${s.link % 3}/f${s.link}.md`] }, s.body),
          );
          const counter = encoding === 'o200k_base' ? o200k : cl100k;
          const scores = scoreFiles(files, { now: NOW, task });
          const indexLines = files.length ? ['## Other', ...files.map((f) => `- [${f.name}](${f.path}) — ${f.description}`)] : ['_No memory files yet_'];
          const result = packBundle({ files, scores, indexLines, budget, format, encoding, count: (t) => counter.count(t) });
          const real = counter.count(result.text);
          expect(real).toBe(result.tokens);
          expect(real).toBeLessThanOrEqual(budget);
          if (format === 'json' && result.text !== '') JSON.parse(result.text);
        },
      ),
      { numRuns: 125 },
    );
  });
});
