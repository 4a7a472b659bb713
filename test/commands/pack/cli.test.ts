import { existsSync, lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadTokenCounterSync } from '../../../src/kernel/tokens/count.js';
import { readCountCache, TOKEN_COUNTS_FILE } from '../../../src/kernel/state/token-counts.js';
import { VERSION } from '../../../src/kernel/version.js';
import { copyFixture, memctx, removeDir, tempDir, stateOf } from '../../helpers/cli.js';
import { runCli } from '../../helpers/run.js';

const o200k = loadTokenCounterSync('o200k_base');
const cl100k = loadTokenCounterSync('cl100k_base');
let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) removeDir(d);
  dirs = [];
});

function fixture(): string {
  const root = tempDir();
  dirs.push(root);
  return copyFixture('pack-basic', root);
}

const json = (stdout: string) => JSON.parse(stdout);

describe('memctx pack', () => {
  it('prints a bundle within the default budget and a report on stderr', async () => {
    const cwd = fixture();
    const r = await runCli(['pack', '--task', 'safari login loop'], { cwd });
    expect(r.code).toBe(0);
    expect(r.stdout.startsWith('# Memory bundle\n\n## Index\n\n### User\n\n- [Ground rules](pinned_rules.md)')).toBe(true);
    expect(r.stdout).toContain('### issue_login_loop.md');
    expect(r.stderr).toMatch(/^task +score +rel +rec +dep +tier +tokens +bundle +path\n/);
    expect(r.stderr).toMatch(/\nbundle: ([\d,]+) of 25,000 tokens \(o200k_base, markdown\); full text [\d,]+; index 14\/14 lines\n/);
    const tokens = Number(/bundle: ([\d,]+) of/.exec(r.stderr)![1].replace(/,/g, ''));
    expect(o200k.count(r.stdout)).toBe(tokens);
    expect(r.stderr).toMatch(/(saved: [\d,]+ tokens against|no saving: the bundle is [\d,]+ tokens more than) loading all 9 files in full/);
  });

  it('reports every file, the tokens saved and the tokenizer state in --json', async () => {
    const cwd = fixture();
    const r = await runCli(['--json', 'pack', '--task', 'safari login loop', '--budget', '900'], { cwd });
    expect(r.code).toBe(0);
    const report = json(r.stdout);
    expect(report.files).toHaveLength(9);
    const issue = report.files.find((f: { path: string }) => f.path === 'issue_login_loop.md');
    expect(issue).toMatchObject({ relevance: 50, dependency: 20, tier: 'full', planned: 'full' });
    expect(issue.score).toBe(issue.relevance + issue.recency + issue.dependency);
    expect(issue.tokens).toBe(o200k.count(readFileSync(join(cwd, '.memory/issue_login_loop.md'), 'utf8')));
    expect(o200k.count(report.bundle)).toBe(report.tokens);
    expect(report.tokens).toBeLessThanOrEqual(900);
    expect(report.saved).toBe(report.totalFileTokens - report.tokens);
    expect(report.tokenizer).toMatchObject({ loaded: true, cacheHits: 0 });
    expect(report.caches).toEqual({ tokenCounts: 'missing', files: 'missing' });
    expect(r.stderr).toBe('');
  });

  // These two run the bin: whether the tokenizer was loaded is a fact about a fresh process.
  it('does not load the tokenizer at all when every count is cached', async () => {
    const cwd = fixture();
    const probe = join(cwd, 'probe.cjs');
    writeFileSync(probe, "process.on('exit', () => process.stderr.write('tiktoken modules loaded: ' + Object.keys(require.cache).filter((k) => k.includes('js-tiktoken')).length + '\\n'));\n");
    const env = { NODE_OPTIONS: `--require ${probe}` };
    const cold = memctx(['--json', 'pack', '--task', 'safari'], { cwd, env });
    // The built bin reads the rank table the build wrote (dist/src/kernel/tokens/*.ranks), not js-tiktoken's module.
    expect(cold.stderr).toBe('tiktoken modules loaded: 0\n');
    expect(json(cold.stdout).tokenizer.loaded).toBe(true);
    const warm = memctx(['--json', 'pack', '--task', 'safari'], { cwd, env });
    expect(warm.stderr).toBe('tiktoken modules loaded: 0\n');
    expect(json(warm.stdout).tokenizer).toEqual({ loaded: false, cacheHits: json(warm.stdout).tokenizer.cacheHits, cacheMisses: 0 });
    expect(json(warm.stdout).caches).toEqual({ tokenCounts: 'read', files: 'read' });
    expect(json(warm.stdout).bundle).toBe(json(cold.stdout).bundle);
  });

  it('ignores a corrupt .memctx cache and rebuilds it', async () => {
    const cwd = fixture();
    mkdirSync(stateOf(join(cwd, '.memory')), { recursive: true });
    writeFileSync(join(stateOf(join(cwd, '.memory')), TOKEN_COUNTS_FILE), 'memctx token counts 1\n\u0000\u0001');
    const r = memctx(['--json', 'pack'], { cwd });
    expect(r.code).toBe(0);
    expect(json(r.stdout).caches.tokenCounts).toBe('rebuilt');
    const rebuilt = readCountCache(join(cwd, '.memory'), VERSION);
    expect(rebuilt.status).toBe('read');
    expect(rebuilt.cache.size).toBeGreaterThan(9);
    const again = json((memctx(['--json', 'pack'], { cwd })).stdout);
    expect(again.tokenizer.loaded).toBe(false);
    expect(again.caches.tokenCounts).toBe('read');
  });

  it.each([
    [['--budget', '0'], '--budget must be a positive number of tokens, got "0"'],
    [['--budget', '-5'], '--budget must be a positive number of tokens, got "-5"'],
    [['--budget=-5'], '--budget must be a positive number of tokens, got "-5"'],
    [['--budget', 'lots'], '--budget must be a positive number of tokens, got "lots"'],
    [['--budget', '10%'], '--budget 10% is a percentage, but no context window was given'],
    [['--budget', '10%', '--window', 'big'], '--window must be a positive number of tokens, got "big"'],
    [['--budget', '10%', '--model', 'llama-9'], 'unknown --model "llama-9"'],
    [['--profile', 'handoff-specialist'], '--profile handoff-specialist packs only what the task reaches, and no --task or --focus was given'],
    [['--task', '  '], '--task is empty'],
    [['--out', '.memory/bundle.md'], '--out .memory/bundle.md is inside the memory directory'],
  ])('refuses %j with exit 2', async (args, message) => {
    const cwd = fixture();
    const r = await runCli(['pack', ...args], { cwd });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`memctx: error: ${message}`);
    expect(r.stderr).toContain('hint:');
  });

  it.each([
    ['--profile', 'rehydrat', 'must be one of rehydrate, handoff-complete, handoff-specialist, handoff-continuation, handoff-emergency, got "rehydrat"\n  hint: did you mean --profile rehydrate?'],
    ['--format', 'yaml', 'must be one of markdown, xml, json, got "yaml"'],
    ['--encoding', 'p50k_base', 'must be one of o200k_base, cl100k_base, got "p50k_base"'],
  ])('refuses an unknown %s with exit 2, listing the valid ones', async (option, value, listing) => {
    const cwd = fixture();
    const r = await runCli(['pack', option, value], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`memctx: error: ${option} ${listing}`);
  });

  it('takes a percentage of --window or --model', async () => {
    const cwd = fixture();
    expect(json((await runCli(['--json', 'pack', '--budget', '0.4%', '--window', '100000'], { cwd })).stdout).budget).toBe(400);
    expect(json((await runCli(['--json', 'pack', '--budget', '1%', '--model', 'claude-sonnet-4-5'], { cwd })).stdout).budget).toBe(2000);
    expect(json((await runCli(['--json', 'pack', '--profile', 'handoff-emergency'], { cwd })).stdout).budget).toBe(15_000);
  });

  it('holds what fits when the budget is smaller than the index, never over it', async () => {
    const cwd = fixture();
    const r = await runCli(['--json', 'pack', '--budget', '80'], { cwd });
    // The pinned file does not fit in 80 tokens: exit 1, and the bundle still holds what fits.
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('1 pinned file(s) do not fit in full within 80 tokens: pinned_rules.md');
    const report = json(r.stdout);
    expect(o200k.count(report.bundle)).toBe(report.tokens);
    expect(report.tokens).toBeLessThanOrEqual(80);
    expect(report.indexLines.included).toBeLessThan(report.indexLines.total);
    expect(report.leftOut.indexLines).toBe(report.indexLines.total - report.indexLines.included);
    expect(report.bundle).toContain('## Left out\n\nLeft out to stay within 80 tokens:');
  });

  it('puts a pinned file larger than the whole budget in as its head with a pointer, and exits 1', async () => {
    const cwd = fixture();
    const long = Array.from({ length: 400 }, (_, i) => `Line ${i}: the full history of the auth migration, step by step.`).join('\n');
    writeFileSync(join(cwd, '.memory/history.md'), `---\nname: History\ndescription: The whole auth history\ntype: project\npinned: true\nupdated: 2026-01-01\n---\n\n${long}\n`);
    const r = await runCli(['--json', 'pack', '--budget', '1500'], { cwd });
    expect(r.code).toBe(1);
    const report = json(r.stdout);
    const history = report.files.find((f: { path: string }) => f.path === 'history.md');
    expect(history).toMatchObject({ tier: 'head', note: 'larger than the whole budget: its head, with a pointer to the rest' });
    expect(history.tokens).toBeGreaterThan(1500);
    expect(report.bundle).toContain('Line 0:');
    expect(report.bundle).not.toContain('Line 399:');
    expect(report.bundle).toMatch(/\[… \d+ more tokens of this file left out: memctx show history\.md\]/);
    expect(report.pinnedLeftOut).toEqual(['history.md']);
    expect(report.tokens).toBeLessThanOrEqual(1500);
  });

  it('packs an empty memory directory', async () => {
    const cwd = tempDir();
    dirs.push(cwd);
    expect((await runCli(['init'], { cwd })).code).toBe(0);
    const r = await runCli(['pack'], { cwd });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('# Memory bundle\n\n## Index\n\n_No memory files yet: add one with `memctx add`._\n');
    expect(r.stderr).toContain('no saving: the bundle is 21 tokens more than loading all 0 files in full (0 tokens)');
  });

  it('counts text with special-token strings as ordinary text', async () => {
    const cwd = fixture();
    writeFileSync(join(cwd, '.memory/prompt_markers.md'), '---\nname: Prompt markers\ndescription: Raw chat markers\npinned: true\n---\n<|endoftext|><|im_start|>system\n<|fim_prefix|> and <|endofprompt|>\n');
    const report = json((await runCli(['--json', 'pack', '--encoding', 'cl100k_base'], { cwd })).stdout);
    const file = report.files.find((f: { path: string }) => f.path === 'prompt_markers.md');
    expect(file.tier).toBe('full');
    expect(file.tokens).toBe(cl100k.count(readFileSync(join(cwd, '.memory/prompt_markers.md'), 'utf8')));
    expect(file.tokens).toBeGreaterThan(20);
    expect(report.bundle).toContain('<|endoftext|>');
    expect(cl100k.count(report.bundle)).toBe(report.tokens);
    expect(report.encoding).toBe('cl100k_base');
  });

  it('writes --out atomically and leaves stdout empty; the same input gives the same bytes', async () => {
    const cwd = fixture();
    mkdirSync(join(cwd, 'out')); // --out creates no folders
    const first = await runCli(['pack', '--format', 'xml', '--out', 'out/context.xml', '--task', 'auth'], { cwd });
    expect(first.code).toBe(0);
    expect(first.stdout).toBe('');
    expect(first.stderr).toContain(' → out/context.xml;');
    const xml = readFileSync(join(cwd, 'out/context.xml'), 'utf8');
    expect(xml.startsWith('<memory-bundle encoding="o200k_base" budget="25000">\n<index>\n')).toBe(true);
    await runCli(['pack', '--format', 'xml', '--out', 'out/context.xml', '--task', 'auth'], { cwd });
    expect(readFileSync(join(cwd, 'out/context.xml'), 'utf8')).toBe(xml);
  });

  it('records no access for what it packs; `show` does, in .memctx/stats.json, never in the memory files', async () => {
    const cwd = fixture();
    const before = readFileSync(join(cwd, '.memory/pinned_rules.md'), 'utf8');
    await runCli(['pack', '-q'], { cwd });
    await runCli(['pack', '-q', '--task', 'pinned rules'], { cwd });
    expect(existsSync(join(stateOf(join(cwd, '.memory')), 'stats.json'))).toBe(false);
    await runCli(['show', 'pinned_rules.md'], { cwd });
    const stats = JSON.parse(readFileSync(join(stateOf(join(cwd, '.memory')), 'stats.json'), 'utf8'));
    expect(Object.keys(stats.files)).toEqual(['pinned_rules.md']);
    expect(stats.files['pinned_rules.md'].count).toBe(1);
    expect(readFileSync(join(cwd, '.memory/pinned_rules.md'), 'utf8')).toBe(before);
  });

  it('refuses a --focus that names no memory file and no file mentions, naming it (exit 2)', async () => {
    const cwd = fixture();
    const r = await runCli(['pack', '--focus', 'project_db', 'src/nowhere.ts'], { cwd });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('--focus src/nowhere.ts: no memory file has that path and no memory file mentions it');
  });

  it('warns about an unreadable memory file and packs the rest', async () => {
    const cwd = fixture();
    writeFileSync(join(cwd, '.memory/broken.md'), '---\nname: [unclosed\n---\nbody\n');
    const r = await runCli(['pack'], { cwd });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/\.memory\/broken\.md:\d+: warning: invalid YAML/);
    expect(r.stdout).toContain('### pinned_rules.md');
  });
});

describe('memctx pack with a warm cache', () => {
  it('sees a file that changed since the last pack', async () => {
    const cwd = fixture();
    const path = join(cwd, '.memory/pinned_rules.md');
    expect((await runCli(['pack', '-q'], { cwd })).stdout).toContain('Never push to main.');
    writeFileSync(path, readFileSync(path, 'utf8').replace('Never push to main.', 'Never force-push.'));
    const r = await runCli(['pack', '-q'], { cwd });
    expect(r.stdout).toContain('Never force-push.');
    expect(r.stdout).not.toContain('Never push to main.');
  });

  it('ignores a corrupt pack cache', async () => {
    const cwd = fixture();
    mkdirSync(stateOf(join(cwd, '.memory')), { recursive: true });
    writeFileSync(join(stateOf(join(cwd, '.memory')), 'pack-cache.bin'), 'garbage');
    const r = await runCli(['--json', 'pack'], { cwd });
    expect(r.code).toBe(0);
    expect(json(r.stdout).caches.files).toBe('rebuilt');
    expect(readFileSync(join(stateOf(join(cwd, '.memory')), 'pack-cache.bin'), 'latin1')).toMatch(/^memctx stat cache 1\n/);
  });

  it('pack --task gives the same bundle from its word index, and ignores a corrupt, truncated or planted one', async () => {
    const cwd = fixture();
    const state = stateOf(join(cwd, '.memory'));
    const task = ['pack', '--task', 'safari login loop'];
    const cold = await runCli(task, { cwd });
    const index = join(state, 'word-index.bin');
    const good = readFileSync(index);
    expect((await runCli(task, { cwd })).stdout).toBe(cold.stdout);
    const outside = join(tempDir(), 'elsewhere.bin');
    dirs.push(join(outside, '..'));
    writeFileSync(outside, good);
    for (const spoil of [() => writeFileSync(index, 'garbage'), () => writeFileSync(index, good.subarray(0, good.length >> 1)), () => (rmSync(index), symlinkSync(outside, index))]) {
      spoil();
      const r = await runCli(task, { cwd });
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(cold.stdout);
      expect(lstatSync(index).isSymbolicLink()).toBe(false);
      expect(readFileSync(index)).toEqual(good);
    }
    expect(readFileSync(outside)).toEqual(good);
  });

  it('MEMCTX_TIMING=1 adds a table of wall time per phase on stderr, even with --quiet; unset or 0, none', async () => {
    const cwd = fixture();
    const r = await runCli(['--quiet', 'pack', '--task', 'safari login loop', '--out', 'bundle.md'], { cwd, env: { MEMCTX_TIMING: '1' } });
    expect(r.code).toBe(0);
    const rows = r.stderr.trimEnd().split('\n').map((line) => line.split(/ {2,}/));
    expect(rows.map((row) => row[0])).toEqual(['phase', 'start-up', 'scan', 'count', 'dates', 'score', 'bundle', 'write', 'caches', 'secrets', 'access', 'total']);
    const ms = rows.slice(1).map((row) => Number(row[1]));
    expect(ms.every((n) => Number.isInteger(n) && n >= 0)).toBe(true);
    // The total is the sum of the phases before rounding: within one millisecond per phase of the rounded ones.
    expect(Math.abs(ms.at(-1)! - ms.slice(0, -1).reduce((a, b) => a + b, 0))).toBeLessThanOrEqual(10);
    expect(rows.slice(1, -1).every((row) => /^\d+%$/.test(row[2]))).toBe(true);
    for (const env of [{}, { MEMCTX_TIMING: '0' }, { MEMCTX_TIMING: '' }]) {
      const quiet = await runCli(['--quiet', 'pack', '--out', 'bundle.md'], { cwd, env });
      expect(quiet.stderr, JSON.stringify(env)).toBe('');
    }
  });
});
