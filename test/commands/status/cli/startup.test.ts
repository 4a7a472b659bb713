// `memctx status --startup` (issue 35, Deliver 5): what the SessionStart bundle injects, by source.
import { cpSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES, removeTempDirs, tempDir } from '../../../helpers/cli.js';
import { runMemctx } from '../../../helpers/run.js';
import { makeMemoryRepo } from '../../../helpers/repo.js';

const NOW = new Date('2026-11-28T12:00:00Z');

afterAll(() => removeTempDirs());

/** Every file under dir (links as links), with its text. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const path = join(e.parentPath, e.name);
    if (e.isSymbolicLink()) out[path.slice(dir.length)] = 'link';
    else if (e.isFile()) out[path.slice(dir.length)] = readFileSync(path, 'utf8');
  }
  return out;
}

/** A project holding a copy of fixtures/seed-memory as .memory/, its files' times fixed; its own cache folder. */
function seedProject(): { dir: string; env: Record<string, string> } {
  const dir = tempDir('memctx-startup-');
  cpSync(join(FIXTURES, 'seed-memory'), join(dir, '.memory'), { recursive: true });
  for (const e of readdirSync(join(dir, '.memory'), { withFileTypes: true, recursive: true })) utimesSync(join(e.parentPath, e.name), NOW, new Date('2026-11-20T10:00:00Z'));
  return { dir, env: { NO_COLOR: '1', HOME: dir, XDG_CACHE_HOME: join(dir, 'cache'), PATH: process.env.PATH ?? '' } };
}

const run = (args: string[], project: { dir: string; env: Record<string, string> }) => runMemctx(args, { cwd: project.dir, env: project.env, now: NOW });

interface Report {
  tokens: number;
  budget: number;
  chars: number;
  overHookLimit: boolean;
  bySource: Record<string, number>;
  advice: string;
  pinnedLeftOut: string[];
}

describe('memctx status --startup on a fixture memory', () => {
  it('prints the bundle by source against the budget and the hook-output limit, and writes nothing', async () => {
    const project = seedProject();
    const before = tree(project.dir);
    const r = await run(['status', '--startup'], project);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toBe(
      [
        'SessionStart bundle  1,953 / 2,000 tokens (98% of the budget)  memctx pack --profile rehydrate --budget 2000',
        'source    tokens  share',
        'index        469   24%   the bundle header and the index of every memory',
        'pinned       648   33%   the files the profile loads first (latest state, open next steps, decisions, issues)',
        'sessions     460   24%   other sessions',
        'drifted        0    0%   the Drifted memories block',
        'others       376   19%   other memories',
        'total      1,953  100%',
        "characters: 6,997 / 10,000 (Claude Code's hook-output limit)  fits",
        'Within the budget and the hook-output limit: the whole bundle reaches the model.',
        '',
      ].join('\n'),
    );
    // Nothing written: not the memory, not the cache folder (no token counts, no pack cache, no access counts).
    const after = tree(project.dir);
    expect(after).toEqual(before);
  });

  it('gives the same figures as JSON, adding up to what pack --profile rehydrate reports', async () => {
    const project = seedProject();
    const r = await run(['--json', 'status', '--startup'], project);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const report = JSON.parse(r.stdout) as Report;
    expect(report).toEqual({
      command: 'memctx pack --profile rehydrate --budget 2000',
      profile: 'rehydrate',
      budget: 2000,
      tokens: 1953,
      bySource: { index: 469, pinned: 648, sessions: 460, drifted: 0, others: 376 },
      chars: 6997,
      hookOutputLimitChars: 10_000,
      overHookLimit: false,
      pinnedLeftOut: [],
      advice: 'Within the budget and the hook-output limit: the whole bundle reaches the model.',
      warnings: [],
    });
    expect(Object.values(report.bySource).reduce((a, b) => a + b, 0)).toBe(report.tokens);
    const packed = JSON.parse((await run(['--json', 'pack', '--profile', 'rehydrate', '--budget', '2000'], project)).stdout) as { tokens: number; bundle: string; startup: Report };
    expect([packed.tokens, packed.bundle.length, packed.startup.bySource]).toEqual([report.tokens, report.chars, report.bySource]);
    // The hook's own command line, as init writes it, gives that bundle byte for byte.
    const hook = await run(['pack', '--profile', 'rehydrate', '--budget', '2000', '--quiet'], project);
    expect(hook.stdout.length).toBe(report.chars);
  });

  it('--budget measures another budget; --quiet prints nothing when all is well', async () => {
    const project = seedProject();
    const r = await run(['--json', 'status', '--startup', '--budget', '1%', '--model', 'gpt-4o'], project);
    const report = JSON.parse(r.stdout) as Report;
    expect([r.code, report.budget, report.tokens <= 1280]).toEqual([0, 1280, true]);
    expect(await run(['--quiet', 'status', '--startup'], project)).toEqual({ code: 0, stdout: '', stderr: '' });
  });
});

/** Twelve long decisions of importance 9: the profile loads them first. */
function bigMemory(project: { dir: string }, pinned = false): void {
  for (let i = 0; i < 12; i++) {
    const body = Array.from({ length: 60 }, (_, j) => `Step ${j} of decision ${i}: the queue worker stays idempotent and retries with backoff.`).join('\n');
    const extra = pinned && i === 0 ? 'pinned: true\n' : '';
    writeFileSync(join(project.dir, '.memory', `decision_${i}.md`), `---\nname: Decision ${i}\ndescription: Queue decision ${i}\ntype: project\nkind: decision\nimportance: 9\nupdated: 2026-11-27\n${extra}---\n\n${body}\n`);
  }
}

describe('memctx status --startup: what keeps the bundle out of the context', () => {
  it('over the hook-output limit: exit 1, says so, and the budget it suggests fits', async () => {
    const project = seedProject();
    bigMemory(project);
    const r = await run(['status', '--startup', '--budget', '25000'], project);
    expect(r.code).toBe(1);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^SessionStart bundle {2}[\d,]+ \/ 25,000 tokens \(\d+% of the budget\) {2}memctx pack --profile rehydrate --budget 25000$/);
    expect(lines.at(-3)).toMatch(/^characters: [\d,]+ \/ 10,000 \(Claude Code's hook-output limit\) {2}OVER$/);
    const advice = /^Over the limit: Claude Code keeps hook output over 10,000 characters out of the context \(the model sees a 2 KB preview and a file path\)\. Lower --budget in the SessionStart hook \(\.claude\/settings\.json\), to about (\d+): check with `memctx status --startup --budget \1`\.$/.exec(lines.at(-2)!);
    expect(advice).not.toBeNull();
    const fixed = await run(['--json', 'status', '--startup', '--budget', advice![1]], project);
    expect([fixed.code, (JSON.parse(fixed.stdout) as Report).overHookLimit]).toEqual([0, false]);
    // --quiet still says what is wrong, on stderr.
    const quiet = await run(['--quiet', 'status', '--startup', '--budget', '25000'], project);
    expect([quiet.code, quiet.stdout, quiet.stderr.startsWith('memctx: Over the limit: ')]).toEqual([1, '', true]);
  });

  it('a pinned file that does not fit: exit 1, since the hook pack then exits 1 and Claude Code drops its output', async () => {
    const project = seedProject();
    bigMemory(project, true);
    const r = await run(['--json', 'status', '--startup', '--budget', '300'], project);
    const report = JSON.parse(r.stdout) as Report;
    expect([r.code, report.pinnedLeftOut, report.overHookLimit]).toEqual([1, ['decision_0.md'], false]);
    expect(report.advice).toBe(
      "1 pinned file(s) do not fit in full within 300 tokens (decision_0.md): the hook's pack exits 1, and Claude Code adds a SessionStart hook's output only when it exits 0. Unpin them (pinned: false) or shorten them.",
    );
  });
});

describe('memctx status --startup counts the drifted block', () => {
  it('a memory whose code changed: its line is in the drifted row, and the rows still add up', async () => {
    const repo = await makeMemoryRepo();
    repo.write('src/a.ts', 'export const a = 1;\n');
    repo.gitOk(['add', '-A']);
    repo.gitOk(['commit', '-q', '-m', 'code']);
    expect((await repo.memctx(['add', 'project_a.md', '--name', 'Module a', '--description', 'where a starts', '--type', 'project', '--body', 'Module a starts in `src/a.ts`.'])).code).toBe(0);
    repo.gitOk(['add', '-A']);
    repo.gitOk(['commit', '-q', '-m', 'memories']);
    const clean = JSON.parse((await repo.memctx(['--json', 'status', '--startup'])).stdout) as Report;
    expect(clean.bySource.drifted).toBe(0);
    repo.write('src/a.ts', 'export const a = 2;\n');
    repo.gitOk(['commit', '-q', '-am', 'a moves']);
    const r = await repo.memctx(['--json', 'status', '--startup']);
    const report = JSON.parse(r.stdout) as Report;
    const packed = JSON.parse((await repo.memctx(['--json', 'pack', '--profile', 'rehydrate', '--budget', '2000'])).stdout) as { tokens: number; startup: Report };
    expect(r.code).toBe(0);
    expect(report.bySource.drifted).toBeGreaterThan(40);
    expect(report.bySource).toEqual(packed.startup.bySource);
    expect(Object.values(report.bySource).reduce((a, b) => a + b, 0)).toBe(packed.tokens);
    const table = (await repo.memctx(['status', '--startup'])).stdout;
    expect(table.split('\n').find((l) => l.startsWith('drifted'))).toBe(`drifted   ${String(report.bySource.drifted).padStart(6)}  ${`${Math.round((report.bySource.drifted * 100) / report.tokens)}%`.padStart(4)}   the Drifted memories block`);
    expect(repo.gitOk(['status', '--porcelain'])).toBe('');
  });
});

describe('memctx status --startup on memories that are not there', () => {
  it('an empty memory directory: the bundle header and a line saying there is nothing yet', async () => {
    const dir = tempDir('memctx-startup-empty-');
    mkdirSync(join(dir, '.memory'));
    const r = await runMemctx(['--json', 'status', '--startup'], { cwd: dir, env: { HOME: dir, XDG_CACHE_HOME: join(dir, 'cache') }, now: NOW });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ tokens: 21, bySource: { index: 21, pinned: 0, sessions: 0, drifted: 0, others: 0 }, chars: 77, overHookLimit: false });
    expect(readdirSync(dir)).toEqual(['.memory']);
    expect(readdirSync(join(dir, '.memory'))).toEqual([]);
  });

  it('no .memory: exit 2 and what to do', async () => {
    const dir = tempDir('memctx-startup-none-');
    const r = await runMemctx(['status', '--startup'], { cwd: dir, env: { HOME: dir } });
    expect(r).toEqual({ code: 2, stdout: '', stderr: `memctx: error: no .memory/ directory in ${dir} or any parent\n  hint: run \`memctx init\` to create one, or pass --dir PATH\n` });
  });
});

describe('memctx status --startup refuses bad options with exit 2', () => {
  const project = seedProject();
  it.each([
    [['--budget', 'abc'], 'memctx: error: --budget must be a positive number of tokens, got "abc"\n  hint: e.g. --budget 25000, --budget 25k or --budget 1m\n'],
    [['--budget', '0'], 'memctx: error: --budget must be a positive number of tokens, got "0"\n  hint: e.g. --budget 25000, --budget 25k or --budget 1m\n'],
    [['--budget', '5%'], 'memctx: error: --budget 5% is a percentage, but no context window was given\n  hint: add --window N or --model ID, or give the budget in tokens\n'],
    [['--fail-on', 'red'], 'memctx: error: --fail-on does not apply with --startup\n  hint: --startup measures the SessionStart bundle, not a transcript: leave out --fail-on, or leave out --startup\n'],
    [['x.jsonl'], 'memctx: error: --startup measures the SessionStart bundle, not a transcript: x.jsonl was given too\n  hint: leave out the file, or leave out --startup to measure the transcript\n'],
  ])('status --startup %j', async (args, stderr) => {
    expect(await run(['status', '--startup', ...args], project)).toEqual({ code: 2, stdout: '', stderr });
  });

  it('--budget without --startup', async () => {
    expect(await run(['status', '--budget', '2000'], project)).toEqual({ code: 2, stdout: '', stderr: 'memctx: error: --budget applies only with --startup\n  hint: add --startup to measure the SessionStart bundle at that budget\n' });
  });
});

describe('memctx status --startup in a hostile clone', () => {
  it('a committed .memory/.memctx (a link out, or planted state) is neither followed nor written, nor changes the figures', async () => {
    const clean = seedProject();
    const expected = (await run(['--json', 'status', '--startup'], clean)).stdout;
    // A link to a folder outside the repository, as a clone could commit it.
    const linked = seedProject();
    const outside = tempDir('memctx-startup-outside-');
    symlinkSync(outside, join(linked.dir, '.memory', '.memctx'));
    const r = await run(['--json', 'status', '--startup'], linked);
    expect([r.code, r.stdout]).toEqual([0, expected]);
    expect(readdirSync(outside)).toEqual([]);
    expect(lstatSync(join(linked.dir, '.memory', '.memctx')).isSymbolicLink()).toBe(true);
    // Planted caches that would lie about every count, and planted access counts.
    const planted = seedProject();
    mkdirSync(join(planted.dir, '.memory', '.memctx'));
    const lies = { 'token-counts.json': '{"memctx":"0.1.0","counts":{}}\n', 'token-counts.bin': 'memctx token counts 1\n', 'pack-cache.json': '{"version":1,"records":{}}', 'pack-cache.bin': 'memctx stat cache 1\n', 'stats.json': '{"files":{"project_db.md":{"count":999}}}\n' };
    for (const [name, text] of Object.entries(lies)) writeFileSync(join(planted.dir, '.memory', '.memctx', name), text);
    const before = tree(planted.dir);
    const p = await run(['--json', 'status', '--startup'], planted);
    expect([p.code, p.stdout]).toEqual([0, expected]);
    expect(tree(planted.dir)).toEqual(before);
  });
});
