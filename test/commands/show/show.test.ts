import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyFixture, tempDir } from '../../helpers/cli.js';
import { runCli } from '../../helpers/run.js';
import { run, workspace } from '../../helpers/actions.js';

describe('memctx show', () => {
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

  it('says when the file does not exist', async () => {
    const { cwd } = workspace();
    expect(await run(cwd, ['show', 'nope'])).toEqual({ code: 2, stdout: '', stderr: 'memctx: error: no memory file nope.md\n  hint: run `memctx ls` to see the files\n' });
  });
});
