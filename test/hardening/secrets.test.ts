import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../helpers/cli.js';
import { runMemctx } from '../helpers/run.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

const AWS_ID = 'AKIAIOSFODNN7EXAMPLF';
const JWT = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';

function memoryDir(): string {
  const cwd = tempDir();
  dirs.push(cwd);
  const root = join(cwd, '.memory');
  mkdirSync(root);
  writeFileSync(join(root, 'MEMORY.md'), '# Memory\n');
  writeFileSync(join(root, 'keys.md'), `---\nname: Keys\ndescription: deploy notes\ntype: user\nupdated: "${AWS_ID}"\n---\naws_access_key_id = ${AWS_ID}\nsession ${JWT}\n`);
  return cwd;
}

describe('secrets are never printed in full', () => {
  it('lint finds AWS access key IDs and JWTs, and masks them in every rule and format', async () => {
    const cwd = memoryDir();
    for (const format of ['stylish', 'json', 'github', 'sarif']) {
      const result = await runMemctx(['lint', '--format', format], { cwd });
      expect(result.code).toBe(1);
      expect(result.stdout + result.stderr, format).not.toContain(AWS_ID);
      expect(result.stdout + result.stderr, format).not.toContain(JWT.slice(0, 40));
      expect(result.stdout, format).toContain('aws access key id AKIA');
      expect(result.stdout, format).toContain('json web token eyJh');
    }
  });

  it('a secret in a file name is reported, masked', async () => {
    const cwd = memoryDir();
    writeFileSync(join(cwd, '.memory', `${AWS_ID}.md`), '---\nname: n\ndescription: d\ntype: user\n---\n');
    const result = await runMemctx(['lint'], { cwd });
    expect(result.stdout).toContain('possible secret in the file name: aws access key id AKIA');
    expect(result.stdout.split(AWS_ID).length - 1).toBe(1); // only the file's own path header
  });

  it('show, search --open and pack warn on stderr naming the file, line and rule', async () => {
    const cwd = memoryDir();
    for (const args of [['show', 'keys.md'], ['search', 'deploy', '--open'], ['pack']]) {
      const result = await runMemctx(args, { cwd });
      expect(result.stderr, args[0]).toContain('keys.md:7: possible secret in the output (aws access key id, secretlint-rule-aws)');
      expect(result.stderr, args[0]).toContain('keys.md:8: possible secret in the output (json web token, secretlint-rule-pattern)');
    }
  });

  it('pack --redact-secrets masks them in the bundle and stays within the budget', async () => {
    const cwd = memoryDir();
    const result = await runMemctx(['pack', '--redact-secrets', '--json'], { cwd });
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.bundle).not.toContain(AWS_ID);
    expect(report.bundle).not.toContain(JWT.slice(0, 40));
    expect(report.bundle).toContain('aws_access_key_id = AKIA******** (20 characters)');
    expect(report.tokens).toBeLessThanOrEqual(report.budget);
    expect(result.stderr).toContain('--redact-secrets: possible secrets masked in keys.md');
  });

  it('flush warns when the session file it wrote holds a possible secret', async () => {
    const cwd = memoryDir();
    const result = await runMemctx(['flush', '--goal', 'rotate keys', '--progress', `used ${AWS_ID} to test`], { cwd });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/sessions\/[^:]+\.md:\d+: possible secret in the session file \(aws access key id, secretlint-rule-aws\)/);
  });
});
