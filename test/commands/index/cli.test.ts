// index/cli.ts: the report of `memctx index --check`, as text and as JSON (index.test.ts holds the rebuild).
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyFixture } from '../../helpers/cli.js';
import { runCli } from '../../helpers/run.js';
import { read, snapshot } from '../../helpers/cli-util.js';

describe('memctx index --check', () => {
  it('exits 1 naming what differs, and 0 once rebuilt', async () => {
    const dir = copyFixture('seed-memory');
    writeFileSync(join(dir, 'project_cache.md'), '---\nname: Cache\ndescription: Redis for sessions\ntype: project\n---\n');
    const text = read(join(dir, 'MEMORY.md'));
    writeFileSync(join(dir, 'MEMORY.md'), text.replace('— Editor settings and communication style', '— edited by hand'));
    const before = snapshot(dir);
    const stale = await runCli(['--dir', dir, 'index', '--check'], { cwd: dir });
    expect(stale).toEqual({
      code: 1,
      stdout: '',
      stderr: [
        'MEMORY.md is out of date',
        '  + - [User Preferences](user_prefs.md) — Editor settings and communication style',
        '  + - [Cache](project_cache.md) — Redis for sessions',
        '  - - [User Preferences](user_prefs.md) — edited by hand',
        '  run `memctx index` to rebuild it',
        '',
      ].join('\n'),
    });
    expect(snapshot(dir)).toEqual(before);
    const json = await runCli(['--dir', dir, '--json', 'index', '--check'], { cwd: dir });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({
      upToDate: false,
      exists: true,
      missing: ['- [User Preferences](user_prefs.md) — Editor settings and communication style', '- [Cache](project_cache.md) — Redis for sessions'],
      unexpected: ['- [User Preferences](user_prefs.md) — edited by hand'],
      problems: [],
    });
    expect((await runCli(['--dir', dir, 'index'], { cwd: dir })).code).toBe(0);
    expect(await runCli(['--dir', dir, 'index', '--check'], { cwd: dir })).toEqual({ code: 0, stdout: 'MEMORY.md is up to date (18 files)\n', stderr: '' });
  });

  it('says when MEMORY.md is missing, and when only the layout differs', async () => {
    const dir = copyFixture('claude-memory');
    const text = read(join(dir, 'MEMORY.md'));
    writeFileSync(join(dir, 'MEMORY.md'), text.replace('\n\n## Feedback', '\n## Feedback'));
    const layout = await runCli(['--dir', dir, 'index', '--check'], { cwd: dir });
    expect(layout).toEqual({ code: 1, stdout: '', stderr: 'MEMORY.md is out of date\n  (layout or limits differ)\n  run `memctx index` to rebuild it\n' });
    rmSync(join(dir, 'MEMORY.md'));
    const missing = await runCli(['--dir', dir, 'index', '--check'], { cwd: dir });
    expect(missing.code).toBe(1);
    expect(missing.stderr.split('\n')[0]).toBe('MEMORY.md does not exist');
    expect(existsSync(join(dir, 'MEMORY.md'))).toBe(false);
  });
});
