import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pack } from '../../../../src/kernel/bundle/bundle.js';
import { search } from '../../../../src/commands/search/search.js';
import { runMemoryCommand } from '../../../../src/commands/memory/memory.js';
import { loadTokenCounterSync } from '../../../../src/kernel/tokens/count.js';
import { removeDir, tempDir, stateOf } from '../../../helpers/cli.js';

const NOW = new Date('2026-11-22T12:00:00Z');
const o200k = loadTokenCounterSync('o200k_base');
let dir = '';
afterEach(() => removeDir(dir));

function memoryDir(files: Record<string, string>): string {
  dir = tempDir();
  const root = join(dir, '.memory');
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'MEMORY.md'), '# Memory\n');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const front = (name: string, extra = '') => `---\nname: ${name}\ndescription: ${name} notes\ntype: project\n${extra}---\n\n`;
const filler = (n: number, seed: string) => Array.from({ length: n }, (_, i) => `**assistant:** Paragraph ${i} of ${seed} talks about the weather, the garden and a few recipes in some detail, at length.`).join('\n\n');
const run = (root: string, budget: number, task?: string, extra: Partial<Parameters<typeof pack>[0]> = {}) =>
  pack({ root, budget, format: 'markdown', encoding: 'o200k_base', ...(task === undefined ? {} : { task }), ...extra }, { now: () => NOW, env: {} });

describe('passages of large files', () => {
  it('gives a large file its best-matching turn with the three turns on either side, its line range and the command that loads the file', async () => {
    const evidence = '**user:** By the way, I adopted a greyhound called Biscuit last spring.';
    const body = `${filler(40, 'chat one')}\n\n${evidence}\n\n${filler(40, 'chat two')}\n`;
    const root = memoryDir({ 'sessions/long.md': `${front('Long chat')}${body}`, 'other.md': `${front('Other')}Nothing about dogs.\n` });
    const result = await run(root, 1000, 'what is the name of my greyhound?');
    expect(result.tokens).toBeLessThanOrEqual(1000);
    expect(result.tokens).toBe(o200k.count(result.text));
    expect(result.text).toContain(evidence);
    const lines = readFileSync(join(root, 'sessions/long.md'), 'utf8').split('\n');
    const n = lines.indexOf(evidence) + 1;
    expect(result.text).toContain(`### \`memctx show sessions/long.md\`, lines ${n - 6}-${n + 6}\n\n\`\`\`markdown\n${lines.slice(n - 7, n + 6).join('\n')}\n\`\`\``);
    expect(lines[n - 7]).toMatch(/^\*\*assistant:\*\* Paragraph 37 of chat one/);
    expect(lines[n + 5]).toMatch(/^\*\*assistant:\*\* Paragraph 2 of chat two/);
    expect(result.files.find((f) => f.path === 'sessions/long.md')).toMatchObject({ tier: 'passages', note: 'its best-matching turns with their neighbours: more of what the task asks per token than the whole file' });
  });

  it('gives the answer two turns after the best-matching turn although it shares none of the task\'s words', async () => {
    const question = '**user:** Which trail did we hike with Biscuit last weekend?';
    const between = '**assistant:** Let me look that up in my notes from the week before, one moment please.';
    const answer = '**assistant:** It was Fox Hollow, the long loop along the river past the old mill.';
    const body = `${filler(40, 'chat one')}\n\n${question}\n\n${between}\n\n${answer}\n\n${filler(40, 'chat two')}\n`;
    const root = memoryDir({ 'sessions/long.md': `${front('Long chat')}${body}` });
    const result = await run(root, 1000, 'which trail did we hike with Biscuit');
    expect(result.tokens).toBeLessThanOrEqual(1000);
    expect(result.text).toContain(`${question}\n\n${between}\n\n${answer}`);
    expect(result.files.find((f) => f.path === 'sessions/long.md')).toMatchObject({ tier: 'passages' });
  });

  it('dates each passage of a session with the session\'s day, the count exact', async () => {
    const first = '**user:** By the way, I adopted a greyhound called Biscuit last spring.';
    const second = '**user:** Biscuit the greyhound learned to fetch the ball yesterday.';
    const body = `${filler(30, 'one')}\n\n${first}\n\n${filler(30, 'two')}\n\n${second}\n\n${filler(30, 'three')}\n`;
    const root = memoryDir({ 'sessions/long.md': `${front('Long chat', 'updated: 2023-05-08T13:56:00Z\n')}${body}` });
    const result = await run(root, 1000, 'greyhound Biscuit');
    const lines = readFileSync(join(root, 'sessions/long.md'), 'utf8').split('\n');
    const a = lines.indexOf(first) + 1;
    expect(result.text).toContain(`### \`memctx show sessions/long.md\`, lines ${a - 2}-${a + 2} (updated 2023-05-08)\n\n\`\`\`markdown\n${lines.slice(a - 3, a + 2).join('\n')}\n\`\`\`\n`);
    const [, from, to] = /\n### `memctx show sessions\/long\.md`, lines (\d+)-(\d+) \(updated 2023-05-08\)\n\n```markdown\n\*\*assistant:\*\* Paragraph 2\d of two/.exec(result.text) ?? [];
    expect(lines.slice(Number(from) - 1, Number(to))).toContain(second);
    expect(result.text).toContain(`lines ${from}-${to} (updated 2023-05-08)\n\n\`\`\`markdown\n${lines.slice(Number(from) - 1, Number(to)).join('\n')}\n\`\`\`\n`);
    expect(result.tokens).toBe(o200k.count(result.text));
    expect(result.tokens).toBeLessThanOrEqual(1000);
  });

  it('writes passages in JSON and XML with their lines and load command', async () => {
    const evidence = '**user:** By the way, I adopted a greyhound called Biscuit last spring & love him.';
    const root = memoryDir({ 'sessions/long.md': `${front('Long chat')}${filler(40, 'one')}\n\n${evidence}\n\n${filler(40, 'two')}\n` });
    const lines = readFileSync(join(root, 'sessions/long.md'), 'utf8').split('\n');
    const n = lines.indexOf(evidence) + 1;
    const content = `${lines.slice(n - 7, n + 6).join('\n')}\n`;
    const json = JSON.parse((await run(root, 1000, 'greyhound Biscuit', { format: 'json' })).text);
    expect(json.files).toContainEqual({ path: 'sessions/long.md', tier: 'passage', lines: [n - 6, n + 6], load: 'memctx show sessions/long.md', content });
    const xml = (await run(root, 1000, 'greyhound Biscuit', { format: 'xml' })).text;
    expect(xml).toContain(`<passage path="sessions/long.md" lines="${n - 6}-${n + 6}" load="memctx show sessions/long.md">\n${content.replace('&', '&amp;')}</passage>\n`);
  });

  it('keeps every bundle within the budget when passages straddle the boundary', async () => {
    const body = Array.from({ length: 60 }, (_, i) => `**user:** Question ${i} about the greyhound Biscuit and its ${'long '.repeat(i % 17)}walks.`).join('\n\n');
    const root = memoryDir({ 'sessions/dogs.md': `${front('Dogs')}${body}\n` });
    for (let budget = 150; budget <= 900; budget += 37) {
      const result = await run(root, budget, 'greyhound Biscuit walks');
      expect(o200k.count(result.text)).toBeLessThanOrEqual(budget);
      expect(result.tokens).toBe(o200k.count(result.text));
    }
  });

  it('cuts a file that is one 200 KB line into passages and packs the matching one', async () => {
    const sentences = Array.from({ length: 2500 }, (_, i) => (i === 1700 ? 'The vault combination is kept by Marguerite.' : `Sentence ${i} is filler about nothing much.`));
    const root = memoryDir({ 'big.md': `${front('Big')}${sentences.join(' ')}\n` });
    const result = await run(root, 2000, 'who keeps the vault combination?');
    expect(result.tokens).toBeLessThanOrEqual(2000);
    expect(result.text).toContain('The vault combination is kept by Marguerite.');
    expect(result.text).toContain('### `memctx show big.md`, line 7');
  });

  it('never widens a cut of one long line to the whole line, even when two neighbouring cuts match', async () => {
    const sentences = Array.from({ length: 2500 }, (_, i) => (i === 1700 ? 'The vault combination is kept by Marguerite.' : i === 1701 ? 'Marguerite changes the vault combination yearly.' : `Sentence ${i} is filler about nothing much.`));
    const root = memoryDir({ 'big.md': `${front('Big')}${sentences.join(' ')}\n` });
    const result = await run(root, 2000, 'vault combination Marguerite');
    expect(result.tokens).toBeLessThanOrEqual(2000);
    expect(result.text).toContain('The vault combination is kept by Marguerite.');
    expect(result.text).not.toContain('Sentence 10 is filler');
    expect(result.files.find((f) => f.path === 'big.md')).toMatchObject({ tier: 'passages' });
  });

  it('does not let a long file the task matches best take most of a small budget: its turns go in with their neighbours', async () => {
    const evidence = '**user:** My greyhound Biscuit loves the beach walks.';
    const long = `${front('Long chat')}${filler(60, 'long')}\n\n${evidence}\n\n${filler(60, 'more')}\n`;
    const root = memoryDir({ 'sessions/long.md': long, 'sessions/vet.md': `${front('Vet')}**user:** The vet said Biscuit needs shorter walks.\n` });
    const result = await run(root, 2000, 'greyhound Biscuit beach walks');
    const longFile = result.files.find((f) => f.path === 'sessions/long.md')!;
    expect(longFile.tokens).toBeGreaterThan(2000);
    expect(longFile).toMatchObject({ tier: 'passages' });
    expect(longFile.bundleTokens).toBeLessThan(1000);
    expect(result.text).toContain(evidence);
    expect(result.files.find((f) => f.path === 'sessions/vet.md')).toMatchObject({ tier: 'full' });
    expect(result.tokens).toBe(o200k.count(result.text));
  });

  it('reads one of four long notes the task matches whole, but four long transcripts as their matching turns', async () => {
    const filler = 'routine detail about the release process and the teams involved in it';
    const lines = (speaker: (i: number) => string, hit: string) => Array.from({ length: 70 }, (_, i) => `**${speaker(i)}:** ${i === 9 ? hit : filler}.`).join('\n\n');
    const hits = ['the canary deploy waits for the smoke tests', 'the canary deploy smoke tests passed on Monday', 'canary deploy and smoke tests again', 'smoke tests gate the canary deploy'];
    for (const shape of ['note', 'transcript'] as const) {
      const speaker = shape === 'note' ? (i: number) => `Field ${i}` : (i: number) => (i % 2 ? 'Bob' : 'Ann');
      const root = memoryDir(Object.fromEntries(hits.map((hit, k) => [`f${k}.md`, `${front(`File ${k}`)}${lines(speaker, hit)}\n`])));
      // The note: room for one whole; the transcripts: room for one whole too, were the best one taken first.
      const budget = shape === 'note' ? 1600 : 1300;
      const result = await run(root, budget, 'canary deploy smoke tests');
      expect(result.tokens).toBeLessThanOrEqual(budget);
      expect(result.files.every((f) => f.tokens > 1000)).toBe(true);
      const full = result.files.filter((f) => f.tier === 'full');
      if (shape === 'note') expect(full).toHaveLength(1);
      else {
        expect(full).toEqual([]);
        expect(result.files.map((f) => f.tier)).toEqual(['passages', 'passages', 'passages', 'passages']);
        for (const hit of hits) expect(result.text).toContain(hit);
      }
      removeDir(dir);
    }
  });

  it('gives the index at most a twentieth of the budget with a task, leaving the rest to what the task matches', async () => {
    const files: Record<string, string> = { 'sessions/dog.md': `${front('Dog chat')}${filler(30, 'dog')}\n\n**user:** My greyhound Biscuit loves the beach.\n` };
    for (let i = 0; i < 80; i++) files[`ref_${String(i).padStart(2, '0')}.md`] = `${front(`Reference ${i}`).replace('type: project', 'type: reference')}Some reference ${i}.\n`;
    const root = memoryDir(files);
    const result = await run(root, 2000, 'greyhound Biscuit');
    expect(result.tokens).toBeLessThanOrEqual(2000);
    const index = result.text.slice(result.text.indexOf('\n## Index\n'), result.text.indexOf('\n## ', result.text.indexOf('\n## Index\n') + 1));
    expect(result.indexLines.included).toBeGreaterThan(0);
    expect(result.indexLines.included).toBeLessThan(result.indexLines.total);
    expect(o200k.count(index)).toBeLessThanOrEqual(100);
    expect(result.text).toContain('My greyhound Biscuit loves the beach.');
  });

  it('gives the index back the room the task left: every line when everything fits', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 30; i++) files[`ref_${String(i).padStart(2, '0')}.md`] = `${front(`Reference ${i}`).replace('type: project', 'type: reference')}Some reference ${i}${i === 7 ? ' about the greyhound' : ''}.\n`;
    const root = memoryDir(files);
    const result = await run(root, 4000, 'greyhound');
    expect(result.tokens).toBeLessThanOrEqual(4000);
    expect(result.files.every((f) => f.tier === 'full')).toBe(true);
    expect(result.indexLines.included).toBe(result.indexLines.total);
    expect(result.text).not.toContain('## Left out');
    expect(result.text.indexOf('## Index')).toBeLessThan(result.text.indexOf('## Files in full'));
  });

  it('gives a list item with the items beside it', async () => {
    const items = Array.from({ length: 80 }, (_, i) => `- Item ${i}: ${i === 40 ? 'the release train leaves the station on Thursdays at nine in the morning' : 'routine chores of the week, nothing notable at all here'}.`);
    const root = memoryDir({ 'list.md': `${front('List')}${items.join('\n')}\n` });
    const result = await run(root, 600, 'when does the release train leave?');
    const n = 7 + 40;
    expect(result.text).toContain(`### \`memctx show list.md\`, lines ${n - 1}-${n + 1}\n`);
    expect(result.text).toContain(`${items.slice(39, 42).join('\n')}\n`);
  });

  it('keeps every bundle within the budget in JSON and XML too', async () => {
    const body = Array.from({ length: 60 }, (_, i) => `**user:** Question ${i} about the greyhound Biscuit and its ${'long '.repeat(i % 17)}walks.`).join('\n\n');
    const root = memoryDir({ 'sessions/dogs.md': `${front('Dogs')}${body}\n`, 'sessions/cats.md': `${front('Cats')}${body.replace(/greyhound/g, 'cat')}\n` });
    for (const format of ['json', 'xml'] as const) {
      for (let budget = 200; budget <= 1400; budget += 150) {
        const result = await run(root, budget, 'greyhound Biscuit walks', { format });
        expect(o200k.count(result.text)).toBeLessThanOrEqual(budget);
        expect(result.tokens).toBe(o200k.count(result.text));
        if (format === 'json') expect(() => JSON.parse(result.text)).not.toThrow();
      }
    }
  });

  it('fills the bundle by rank when the task matches no file (every file scores 0 on it)', async () => {
    const root = memoryDir({ 'a.md': `${front('Alpha', 'importance: 9\n')}Alpha notes.\n`, 'b.md': `${front('Beta')}Beta notes.\n` });
    const result = await run(root, 1000, 'quantum chromodynamics');
    expect(result.taskIgnored).toBeNull();
    expect(result.files.map((f) => [f.path, f.task, f.tier])).toEqual([['a.md', 0, 'full'], ['b.md', 0, 'full']]);
    expect(result.tokens).toBe(o200k.count(result.text));
    expect((await search({ root, query: 'quantum chromodynamics', limit: 5 }, { now: () => NOW })).hits).toEqual([]);
  });

  it('handles a file of 10,000 headings', async () => {
    const headings = Array.from({ length: 10_000 }, (_, i) => `# Heading ${i}${i === 7321 ? ' zebra crossing' : ''}`).join('\n');
    const root = memoryDir({ 'headings.md': `${front('Headings')}${headings}\n` });
    const result = await run(root, 1000, 'zebra crossing');
    expect(result.tokens).toBeLessThanOrEqual(1000);
    expect(result.text).toContain('# Heading 7321 zebra crossing');
  });

  it('puts a passage that two files share in once', async () => {
    const shared = '**user:** The staging database password rotates every Monday at noon.';
    const a = `${front('A')}${filler(30, 'a')}\n\n${shared}\n`;
    const b = `${front('B')}${filler(30, 'b')}\n\n${shared}\n`;
    const root = memoryDir({ 'a.md': a, 'b.md': b });
    const result = await run(root, 1200, 'when does the staging database password rotate?');
    expect(result.text.split(shared)).toHaveLength(2);
  });

  it('matches a question in another script', async () => {
    const root = memoryDir({ 'ru.md': `${front('Заметки')}${filler(30, 'x')}\n\n**user:** Мой кот Барсик любит рыбу.\n`, 'en.md': `${front('English')}Cats and fish.\n` });
    const result = await run(root, 800, 'Что любит кот Барсик?');
    expect(result.text).toContain('**user:** Мой кот Барсик любит рыбу.');
    const hits = (await search({ root, query: 'кот Барсик', limit: 2 }, { now: () => NOW })).hits;
    expect(hits[0].path).toBe('ru.md');
  });

  it('ranks without a task of only stopwords, and says so', async () => {
    const root = memoryDir({ 'a.md': `${front('A')}Alpha.\n` });
    const result = await run(root, 500, 'what is the of and');
    expect(result.taskIgnored).toMatch(/no words to match/);
    expect(result.files[0]).toMatchObject({ path: 'a.md', tier: 'full' });
  });
});

describe('the bundle without a task', () => {
  it('puts the index first and keeps the lines of the highest-ranked groups when it alone is over budget', async () => {
    const files: Record<string, string> = { 'user_prefs.md': `${front('Prefs', 'importance: 9\n').replace('type: project', 'type: user')}Tabs.\n` };
    for (let i = 0; i < 80; i++) files[`ref_${String(i).padStart(2, '0')}.md`] = `${front(`Reference ${i}`, 'updated: 2020-01-01\n').replace('type: project', 'type: reference')}Some reference ${i}.\n`;
    const root = memoryDir(files);
    const result = await run(root, 400);
    expect(result.tokens).toBeLessThanOrEqual(400);
    expect(result.text.startsWith('# Memory bundle\n\n## Index\n')).toBe(true);
    // The User group (its file ranks first) is kept whole, before the Reference group's best lines.
    expect(result.text).toContain('## Index\n\n### User\n\n- [Prefs](user_prefs.md) — Prefs notes\n\n### Reference\n\n- [Reference 0](ref_00.md)');
    expect(result.indexLines.included).toBeGreaterThan(2);
    expect(result.indexLines.included).toBeLessThan(result.indexLines.total);
  });

  it('gives a file larger than its share its head, with a pointer to the rest', async () => {
    const root = memoryDir({ 'huge.md': `${front('Huge', 'importance: 9\n')}${filler(400, 'huge')}\n`, 'small.md': `${front('Small')}Short note.\n` });
    const result = await run(root, 3000);
    const huge = result.files.find((f) => f.path === 'huge.md')!;
    expect(huge).toMatchObject({ tier: 'head', note: 'larger than its share of the budget: its head, with a pointer to the rest' });
    expect(huge.bundleTokens).toBeLessThanOrEqual(1000);
    expect(result.text).toMatch(/\[… \d+ more tokens of this file left out: memctx show huge\.md\]/);
    expect(result.files.find((f) => f.path === 'small.md')!.tier).toBe('full');
  });

  it('ranks expired, resolved and duplicate files after current ones', async () => {
    const dup = 'The deploy pipeline runs lint, unit tests, the build, and then the staging smoke tests before release.\n';
    const root = memoryDir({
      'current.md': `${front('Current')}Fresh facts.\n`,
      'expired.md': `${front('Expired', 'expires: 2026-01-01\nimportance: 9\n')}Old promo.\n`,
      'resolved.md': `${front('Resolved', 'kind: issue\nstatus: resolved\nimportance: 9\n')}Fixed bug.\n`,
      'dup_old.md': `${front('Dup old', 'updated: 2025-01-01\nimportance: 9\n')}${dup}`,
      'dup_new.md': `${front('Dup new', 'updated: 2026-11-01\n')}${dup}`,
    });
    const result = await run(root, 5000);
    const order = result.files.map((f) => f.path);
    for (const late of ['expired.md', 'resolved.md', 'dup_old.md']) {
      expect(order.indexOf(late)).toBeGreaterThan(order.indexOf('current.md'));
      expect(order.indexOf(late)).toBeGreaterThan(order.indexOf('dup_new.md'));
    }
    expect(result.files.find((f) => f.path === 'dup_old.md')!.demoted).toBe('duplicate of dup_new.md');
    expect(result.files.find((f) => f.path === 'expired.md')!.demoted).toBe('expired on 2026-01-01');
    expect(result.files.find((f) => f.path === 'resolved.md')!.demoted).toBe('status: resolved');
  });
});

describe('reads that do not feed back', () => {
  it('counts show, search --open and memory view as reads, never pack or a plain search', async () => {
    const root = memoryDir({ 'a.md': `${front('Alpha')}Alpha beta.\n`, 'b.md': `${front('Beta')}Beta gamma.\n` });
    const stats = join(stateOf(root), 'stats.json');
    const before = (await search({ root, query: 'beta', limit: 5 }, { now: () => NOW })).hits;
    await run(root, 2000);
    await run(root, 2000, 'beta');
    expect(existsSync(stats)).toBe(false);
    expect((await search({ root, query: 'beta', limit: 5 }, { now: () => NOW })).hits).toEqual(before);
    await search({ root, query: 'gamma', limit: 5, open: true }, { now: () => NOW });
    await runMemoryCommand(root, { command: 'view', path: '/memories/a.md' }, { now: () => NOW });
    const counts = JSON.parse(readFileSync(stats, 'utf8')).files;
    expect(Object.fromEntries(Object.entries(counts).map(([p, e]) => [p, (e as { count: number }).count]))).toEqual({ 'a.md': 1, 'b.md': 1 });
  });
});

describe('notes the task matches without a matched passage', () => {
  it('go in whole by task score, equal ones in rank order, past one too large for the room', async () => {
    const note = (name: string, body: string) => `---\nname: ${name}\ndescription: greyhound care\ntype: project\n---\n\n${body}\n`;
    const small = 'Walks twice a day, short ones.';
    const root = memoryDir({
      'a-large.md': note('Alpha', filler(60, 'large')),
      'b.md': note('Beta', small),
      'c.md': note('Gamma', small),
      'd.md': note('Delta', small),
      'e.md': note('Epsilon', 'Nothing else.'),
    });
    const result = await run(root, 700, 'greyhound care');
    expect(result.tokens).toBeLessThanOrEqual(700);
    const full = result.files.filter((f) => f.tier === 'full').map((f) => f.path);
    expect(full).toEqual(['b.md', 'c.md', 'd.md', 'e.md']);
    expect(result.files.find((f) => f.path === 'a-large.md')?.tier).not.toBe('full');
    const at = (path: string) => result.text.indexOf(`${path}`);
    expect(at('b.md')).toBeLessThan(at('c.md'));
    expect(at('c.md')).toBeLessThan(at('d.md'));
  });
});
