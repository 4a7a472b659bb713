import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyFixture, FIXTURES, tempDir } from '../../helpers/cli.js';
import { runCli } from '../../helpers/run.js';
import { read } from '../../helpers/cli-util.js';
import { run, workspace } from '../../helpers/actions.js';

describe('memctx show', () => {
  it('prints the file as it is, BOM and CRLF included', async () => {
    const { cwd, root } = workspace();
    expect(await run(cwd, ['show', 'project_auth'])).toEqual({ code: 0, stdout: read(join(root, 'project_auth.md')), stderr: '' });
    const broken = tempDir();
    copyFixture('broken', broken);
    expect((await run(broken, ['--dir', 'broken', 'show', 'crlf.md'])).stdout).toBe(read(join(FIXTURES, 'broken/crlf.md')));
    expect((await run(broken, ['--dir', 'broken', 'show', 'bom.md'])).stdout).toBe(read(join(FIXTURES, 'broken/bom.md')));
    expect((await run(cwd, ['show', 'MEMORY.md'])).stdout).toBe(read(join(root, 'MEMORY.md')));
  });

  it('--json gives the parsed file', async () => {
    const { cwd } = workspace('claude-memory');
    const file = JSON.parse((await run(cwd, ['--json', 'show', 'db-migration-plan.md'])).stdout);
    expect(file).toMatchObject({
      path: 'db-migration-plan.md',
      name: 'db-migration-plan',
      type: 'project',
      updated: '2026-03-02T10:15:00.000Z',
      data: { name: 'db-migration-plan', description: 'Moving the auth tables to Postgres 16 in three steps', metadata: { type: 'project', confidence: 'high' }, modified: '2026-03-02T10:15:00.000Z' },
      links: [{ kind: 'markdown', target: 'project_release-freeze.md', line: 12 }, { kind: 'wiki', target: 'api-conventions', line: 14 }],
      format: { bom: false, eol: '\n', dateKey: 'modified' },
    });
  });

  it('refuses a bad file with exit 2, naming file and line', async () => {
    const cwd = tempDir();
    copyFixture('broken', cwd);
    const marker = join(cwd, 'JS_FRONTMATTER_RAN');
    for (const [file, line, message] of [
      ['malformed_yaml.md', 4, 'invalid YAML'],
      ['js_frontmatter.md', 1, '`---js` (JavaScript) frontmatter is never evaluated'],
      ['javascript_frontmatter.md', 1, 'never evaluated'],
      ['proto_key.md', 5, '`__proto__`'],
      ['binary.md', 3, 'binary data'],
      ['invalid_utf8.md', 3, 'invalid UTF-8'],
      ['unterminated.md', 1, 'never closed'],
    ] as const) {
      for (const json of [[], ['--json']]) {
        const result = await runCli(['--dir', 'broken', ...json, 'show', file], { cwd, env: { MEMCTX_JS_MARKER: marker } });
        expect(result.code).toBe(2);
        // With --json the error is also a JSON document on stdout (issue 24).
        if (json.length) expect(JSON.parse(result.stdout).error).toMatchObject({ file, line, exitCode: 2 });
        else expect(result.stdout).toBe('');
        expect(result.stderr.split('\n')[0]).toContain(`memctx: error: ${file}:${line}: `);
        expect(result.stderr).toContain(message);
      }
    }
    expect(existsSync(marker)).toBe(false);
  });

  it('--json on MEMORY.md gives its text in JSON', async () => {
    const { cwd, root } = workspace();
    expect(JSON.parse((await run(cwd, ['--json', 'show', 'MEMORY.md'])).stdout)).toEqual({ path: 'MEMORY.md', text: read(join(root, 'MEMORY.md')) });
  });

  it('says when the file does not exist', async () => {
    const { cwd } = workspace();
    expect(await run(cwd, ['show', 'nope'])).toEqual({ code: 2, stdout: '', stderr: 'memctx: error: no memory file nope.md\n  hint: run `memctx ls` to see the files\n' });
  });
});
