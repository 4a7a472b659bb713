import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../../helpers/cli.js';
import { runMemctx } from '../../../helpers/run.js';
import { SECRETS_24 } from '../../../helpers/secrets24.js';

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
    for (const args of [['show', 'keys.md'], ['search', 'deploy', '--open'], ['pack', '--no-redact-secrets']]) {
      const result = await runMemctx(args, { cwd });
      expect(result.stderr, args[0]).toContain('keys.md:7: possible secret in the output (aws access key id, secretlint-rule-aws)');
      expect(result.stderr, args[0]).toContain('keys.md:8: possible secret in the output (json web token, secretlint-rule-pattern)');
    }
  });

  it('pack masks them in the bundle by default (--redact-secrets too) and stays within the budget', async () => {
    const cwd = memoryDir();
    for (const args of [['pack', '--json'], ['pack', '--redact-secrets', '--json']]) {
    const result = await runMemctx(args, { cwd });
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.bundle).not.toContain(AWS_ID);
    expect(report.bundle).not.toContain(JWT.slice(0, 40));
    expect(report.bundle).toContain('aws_access_key_id = AKIA******** (20 characters)');
    expect(report.tokens).toBeLessThanOrEqual(report.budget);
    expect(result.stderr).toContain('possible secrets masked in keys.md');
    }
  });

  it('pack --no-redact-secrets leaves them in the bundle, with warnings', async () => {
    const cwd = memoryDir();
    const result = await runMemctx(['pack', '--no-redact-secrets', '--json'], { cwd });
    expect(JSON.parse(result.stdout).bundle).toContain(AWS_ID);
    expect(result.stderr).toContain('keys.md:7: possible secret in the output (aws access key id, secretlint-rule-aws)');
  });

  it('the CLI bundle masks all 24 secret shapes by default (issue 20 item 4: 5 reached it with --redact-secrets before)', async () => {
    const cwd = tempDir();
    dirs.push(cwd);
    mkdirSync(join(cwd, '.memory'));
    SECRETS_24.forEach((s, i) => writeFileSync(join(cwd, '.memory', `s${i}.md`), `---\nname: s${i}\ndescription: ${s.shape}\ntype: project\n---\n\n${s.line}\n`));
    const result = await runMemctx(['pack', '--json'], { cwd });
    const bundle = JSON.parse(result.stdout).bundle as string;
    expect(SECRETS_24.filter((s) => !bundle.includes(`s${SECRETS_24.indexOf(s)}.md`)).map((s) => s.shape)).toEqual([]);
    expect(SECRETS_24.filter((s) => bundle.includes(s.value)).map((s) => s.shape)).toEqual([]);
  });

  it('flush warns when the session file it wrote holds a possible secret', async () => {
    const cwd = memoryDir();
    const result = await runMemctx(['flush', '--goal', 'rotate keys', '--progress', `used ${AWS_ID} to test`], { cwd });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/sessions\/[^:]+\.md:\d+: possible secret in the session file \(aws access key id, secretlint-rule-aws\)/);
  });
});
