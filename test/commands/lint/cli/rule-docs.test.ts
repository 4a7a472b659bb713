import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../../helpers/cli.js';
import { RULES } from '../../../../src/kernel/lint/rules/index.js';
import { repositoryWebUrl } from '../../../../src/kernel/version.js';

describe('rule documentation', () => {
  it('docs/rules/<id>.md exists for every rule, matches the rules (scripts/rule-docs.mjs --check), ships, and the README links it', () => {
    const check = spawnSync(process.execPath, [join(REPO, 'scripts/rule-docs.mjs'), '--check'], { encoding: 'utf8' });
    expect(check.stdout).toBe('');
    expect(check.status).toBe(0);
    for (const rule of RULES) expect(readFileSync(join(REPO, 'docs/rules', `${rule.id}.md`), 'utf8')).toContain(rule.description);
    expect(JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).files).toContain('docs/');
    expect(readFileSync(join(REPO, 'README.md'), 'utf8')).toContain('](docs/rules/)');
    expect(existsSync(join(REPO, 'docs/rules/security/secret.md'))).toBe(true);
  });

  it("reads package.json's repository in its usual shapes; nothing when it is not set", () => {
    expect(repositoryWebUrl('git+https://github.com/o/memctx.git')).toBe('https://github.com/o/memctx');
    expect(repositoryWebUrl({ url: 'git@gitlab.com:o/memctx.git' })).toBe('https://gitlab.com/o/memctx');
    expect(repositoryWebUrl('github:o/memctx')).toBe('https://github.com/o/memctx');
    expect(repositoryWebUrl('o/memctx')).toBe('https://github.com/o/memctx');
    expect(repositoryWebUrl(undefined)).toBeUndefined();
    expect(repositoryWebUrl({})).toBeUndefined();
  });
});
