import { execFileSync } from 'node:child_process';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTokenCounterSync } from '../../../src/kernel/tokens/count.js';
import { copyFixture, tempDir } from '../../helpers/cli.js';
import { runMemctx } from '../../helpers/run.js';

const o200k = loadTokenCounterSync('o200k_base');
const NOW = new Date('2026-11-22T12:00:00Z');

/** A memory directory from files: path → [frontmatter lines, body]. */
function memoryDir(files: Record<string, [string, string]>): string {
  const cwd = tempDir();
  for (const [path, [front, body]] of Object.entries(files)) {
    const full = join(cwd, '.memory', path);
    mkdirSync(join(full, '..'), { recursive: true });
    writeFileSync(full, `---\n${front}\n---\n${body}\n`);
  }
  return cwd;
}

const pack = async (cwd: string, ...args: string[]) => {
  const r = await runMemctx(['--json', 'pack', ...args], { cwd, now: NOW });
  return { ...r, report: r.stdout ? JSON.parse(r.stdout) : undefined };
};
const tier = (report: { files: { path: string; tier: string }[] }, path: string) => report.files.find((f) => f.path === path)?.tier;

const TINY = {
  'login.md': ['name: Login flow\ndescription: How users sign in\ntype: project\nupdated: 2026-01-01', 'The login flow posts the password form and sets a session cookie.'],
  'date.md': ['name: Dates\ndescription: Date formats\ntype: reference\nupdated: 2026-11-22', 'Dates are ISO 8601 in UTC.'],
  'issue_safari.md': ['name: Safari crash\ndescription: Critical Safari crash\ntype: project\nkind: issue\nstatus: open\nseverity: critical\nimportance: 9\nupdated: 2026-11-22T11:30:00Z', 'Safari crashes on the picker. TODO fix.'],
} satisfies Record<string, [string, string]>;

describe('pack --task', () => {
  it('ranks a file the task matches above a fresh critical file it does not; whole words only (date.md ≠ update)', async () => {
    const cwd = memoryDir(TINY);
    const { report } = await pack(cwd, '--task', 'update the login flow', '--budget', '8000');
    expect(report.files[0]).toMatchObject({ path: 'login.md', task: 1, tier: 'full' });
    expect(report.files.find((f: { path: string }) => f.path === 'date.md').task).toBe(0);
    expect(report.files.find((f: { path: string }) => f.path === 'issue_safari.md').score).toBeGreaterThan(report.files[0].score);
    expect(report.taskTerms).toEqual(['updat', 'login', 'flow']);
  });

  it('falls back to the no-task ranking for a task of only stopwords or punctuation, and says so', async () => {
    const cwd = memoryDir(TINY);
    for (const task of ['the and of it', '?!… --- ...']) {
      const r = await pack(cwd, '--task', task);
      expect(r.code).toBe(0);
      expect(r.report.taskIgnored).toBe('the task has no words to match (only common words or punctuation); files are ranked without it');
      expect(r.stderr).toContain('warning: --task: the task has no words to match');
      expect(r.report.files[0].path).toBe('issue_safari.md');
      expect(r.report.files.every((f: { task: number }) => f.task === 0)).toBe(true);
    }
  });

  it('takes a 10,000-character task within the budget', async () => {
    const cwd = memoryDir(TINY);
    const task = `${'login session cookie password form '.repeat(280)}`.slice(0, 10_000);
    const { code, report } = await pack(cwd, '--task', task, '--budget', '500');
    expect(code).toBe(0);
    expect(report.files[0].path).toBe('login.md');
    expect(report.tokens).toBeLessThanOrEqual(500);
    expect(o200k.count(report.bundle)).toBe(report.tokens);
  });

  it('matches tasks in other scripts (CJK, Cyrillic) word for word', async () => {
    const cwd = memoryDir({
      ...TINY,
      'auth_ja.md': ['name: 認証\ndescription: ログインの設計\ntype: project\nupdated: 2026-01-01', '認証はセッションクッキーを使う。'],
      'deploy_ru.md': ['name: Развёртывание\ndescription: Как выкатывать релиз\ntype: project\nupdated: 2026-01-01', 'Релиз выкатывается по вторникам.'],
    });
    expect((await pack(cwd, '--task', '認証を直す')).report.files[0].path).toBe('auth_ja.md');
    expect((await pack(cwd, '--task', 'релиз во вторник')).report.files[0].path).toBe('deploy_ru.md');
  });
});

describe('pack selection', () => {
  it('loads a --focus file and what it links to first; a --focus naming nothing exits 2 naming it', async () => {
    const cwd = memoryDir({
      ...TINY,
      'plan.md': ['name: Plan\ndescription: The plan\ntype: project\nupdated: 2026-01-01\nrelated: [date.md]', 'Plan text.'],
    });
    const { report } = await pack(cwd, '--focus', 'plan', '--budget', '8000');
    expect(report.focus).toEqual(['plan.md', 'date.md']);
    expect(tier(report, 'plan.md')).toBe('full');
    const missing = await runMemctx(['pack', '--focus', 'nowhere.md'], { cwd, now: NOW });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--focus nowhere.md: no memory file has that path and no memory file mentions it');
  });

  it('budgets of 1 and 1,000,000 tokens on a tiny directory: never over, everything in full when it fits', async () => {
    const cwd = memoryDir(TINY);
    const one = await pack(cwd, '--budget', '1');
    expect(one.code).toBe(0);
    expect(one.report).toMatchObject({ tokens: 0, bundle: '' });
    const huge = await pack(cwd, '--budget', '1000000');
    expect(huge.report.files.map((f: { tier: string }) => f.tier)).toEqual(['full', 'full', 'full']);
    expect(huge.report.leftOut).toEqual({ files: [], indexLines: 0 });
    expect(o200k.count(huge.report.bundle)).toBe(huge.report.tokens);
  });

  it('uses at least 85% of the budget when the memory holds more than fits', async () => {
    const cwd = copyFixture('pack-basic', tempDir());
    for (const budget of [250, 400, 600]) {
      const { report } = await pack(cwd, '--budget', String(budget), '--task', 'safari login loop');
      expect(report.totalFileTokens).toBeGreaterThan(budget);
      expect(report.tokens).toBeLessThanOrEqual(budget);
      expect(report.tokens / budget).toBeGreaterThanOrEqual(0.85);
    }
  });

  it('every file pinned and together over budget: a clear message, exit 1, the budget still kept', async () => {
    const body = 'A pinned rule that is long enough to matter. '.repeat(30);
    const cwd = memoryDir({
      'a.md': ['name: A\ndescription: Rule A\ntype: user\npinned: true', body],
      'b.md': ['name: B\ndescription: Rule B\ntype: user\npinned: true', body],
      'c.md': ['name: C\ndescription: Rule C\ntype: user\npinned: true', body],
    });
    const r = await runMemctx(['pack', '--budget', '700'], { cwd, now: NOW });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/error: [23] pinned file\(s\) do not fit in full within 700 tokens: /);
    expect(r.stderr).toContain('hint: raise --budget, or unpin some files');
    expect(o200k.count(r.stdout)).toBeLessThanOrEqual(700);
  });

  it('never packs a superseded decision in full; marks it in the bundle and the index', async () => {
    const cwd = memoryDir({
      'decisions/old.md': ['name: Queue on Redis\ndescription: BullMQ jobs\ntype: project\nkind: decision\nupdated: 2026-01-01', 'Jobs run on BullMQ and Redis.'],
      'decisions/new.md': ['name: Queue on Postgres\ndescription: pg-boss jobs\ntype: project\nkind: decision\nupdated: 2026-09-01\nsupersedes: decisions/old.md', 'Jobs run on pg-boss; Redis is gone.'],
      'decisions/marked.md': ['name: Sessions\ndescription: Server sessions\ntype: project\nkind: decision\nstatus: superseded\nupdated: 2026-02-01', 'Sessions in Postgres, jobs too.'],
    });
    const { report } = await pack(cwd, '--task', 'background jobs queue', '--budget', '100000');
    expect(tier(report, 'decisions/new.md')).toBe('full');
    expect(tier(report, 'decisions/old.md')).toBe('description');
    expect(tier(report, 'decisions/marked.md')).toBe('description');
    expect(report.bundle).toContain('BullMQ jobs [superseded: superseded by decisions/new.md]');
    expect(report.bundle).toContain('- [Queue on Redis](decisions/old.md) — BullMQ jobs (superseded)');
    const lint = await runMemctx(['lint', '--format', 'json'], { cwd, now: NOW });
    expect(lint.stdout).not.toContain('content/supersedes');
    const gc = await runMemctx(['--json', 'gc'], { cwd, now: NOW });
    expect(gc.stdout).toContain('"decisions/old.md"');
    expect(gc.stdout).toContain('"decisions/marked.md"');
  });

  it('lint warns about supersedes: naming a missing file or a ring; a ring of equal age supersedes nothing', async () => {
    const cwd = memoryDir({
      'a.md': ['name: A\ndescription: a\ntype: project\nkind: decision\nupdated: 2026-05-01\nsupersedes: [b.md, gone.md]', 'A.'],
      'b.md': ['name: B\ndescription: b\ntype: project\nkind: decision\nupdated: 2026-05-01\nsupersedes: a', 'B.'],
    });
    const lint = await runMemctx(['lint', '--format', 'json'], { cwd, now: NOW });
    const messages = JSON.parse(lint.stdout).flatMap((f: { messages: { ruleId: string; message: string }[] }) => f.messages).filter((m: { ruleId: string }) => m.ruleId === 'content/supersedes').map((m: { message: string }) => m.message);
    expect(messages.sort()).toEqual([
      'a.md and b.md supersede each other; the newer one stands (at the same age neither is superseded) — remove supersedes: from the file that is current',
      'supersedes: gone.md names no memory file; give its path relative to the memory directory (see `memctx ls`), or remove the entry',
    ]);
    const { report } = await pack(cwd, '--budget', '100000');
    expect(report.files.every((f: { tier: string }) => f.tier === 'full')).toBe(true);
  });
});

describe('age', () => {
  it('a file without dates takes its last commit time in git, not the mtime a clone gave it; lint --fix writes that', async () => {
    const cwd = memoryDir({ 'old.md': ['name: Old\ndescription: An old note\ntype: project', 'Old text.'] });
    const env = { GIT_AUTHOR_DATE: '2026-01-05T10:00:00Z', GIT_COMMITTER_DATE: '2026-01-05T10:00:00Z', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@e', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e', HOME: cwd, PATH: process.env.PATH };
    execFileSync('git', ['init', '-q'], { cwd, env });
    execFileSync('git', ['add', '.'], { cwd, env });
    execFileSync('git', ['commit', '-qm', 'x'], { cwd, env });
    utimesSync(join(cwd, '.memory/old.md'), NOW, NOW);
    const { report } = await runMemctx(['--json', 'pack'], { cwd, now: NOW, env: { PATH: process.env.PATH } }).then((r) => ({ report: JSON.parse(r.stdout) }));
    expect(report.files[0]).toMatchObject({ path: 'old.md', recency: 0 });
    const fix = await runMemctx(['lint', '--fix'], { cwd, now: NOW, env: { PATH: process.env.PATH } });
    expect(fix.stdout + fix.stderr).toContain('old.md: set updated to 2026-01-05T10:00:00');
  });
});
