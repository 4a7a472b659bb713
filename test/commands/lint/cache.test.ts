import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lintMemory } from '../../../src/commands/lint/lint.js';
import { lintSetup } from '../../../src/kernel/lint/setup.js';
import type { LintResult } from '../../../src/kernel/lint/types.js';
import { SECRETS_24 } from '../../helpers/secrets24.js';
import { VALID, doc, lines } from '../../helpers/lint.js';
import { stateOf } from '../../helpers/cli.js';

const PROSE = 'The session cache keeps each token for ten minutes and the refresh path renews it before the expiry so that requests never wait on the identity provider during peak hours.\n';
const GHP = SECRETS_24.find((s) => s.shape === 'github ghp_')!;

let root: string;
let memory: string;
const cachePath = () => join(stateOf(memory), 'lint-cache.json');

/** lint over the memory folder; `now` a minute ahead, so files just written are old enough to cache. */
async function run(now = Date.now() + 60_000): Promise<string[]> {
  const deps = { cwd: root, env: {}, now: () => new Date(now) };
  const outcome = await lintMemory(lintSetup({ memoryDir: memory }, deps), {}, deps);
  return lines(outcome.result as LintResult);
}

function write(path: string, text: string): void {
  writeFileSync(join(memory, path), text);
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'memctx-warm-'));
  memory = join(root, '.memory');
  mkdirSync(memory);
  write('MEMORY.md', '# Memory\n');
  write('a.md', doc({ ...VALID, name: 'A' }, PROSE));
  write('b.md', doc({ ...VALID, name: 'B' }, PROSE.replace('ten', 'five')));
  write('c.md', doc({ ...VALID, name: 'C' }, 'Fixed in commit 3f9a2c71d so the refresh works.\n'));
  write('s.md', doc({ ...VALID, name: 'S' }, `${GHP.line}\n`));
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('lint warm path (.memctx/lint-cache.json, keyed by file stat)', () => {
  it('a second run over unchanged files reports exactly what the first did, and the cache holds no secret', async () => {
    const first = await run();
    expect(first.filter((l) => !l.includes('index/unlisted'))).toEqual([
      'MEMORY.md:1:1 index/stale MEMORY.md is out of date (5 lines missing); run `memctx index` (or `memctx lint --fix`)',
      'b.md:7:1 content/duplicate near-duplicate of a.md (89% of the shorter body is in the other); merge b.md into a.md or remove one',
      'c.md:7:17 content/ephemeral commit hash 3f9a2c7…: git history belongs in git (`git log`), not in memory; keep the durable fact',
      's.md:7:14 security/secret possible secret: github token ghp_******** (40 characters) [secretlint-rule-github]; remove it, rotate the credential, and keep it in a secret store',
    ]);
    expect(readFileSync(cachePath(), 'utf8')).not.toContain(GHP.value);
    expect(await run()).toEqual(first);
  });

  it("an unchanged file's kept results are used; a changed file is checked again", async () => {
    await run();
    const data = JSON.parse(readFileSync(cachePath(), 'utf8'));
    data.files['c.md'].values['content/ephemeral'] = [];
    writeFileSync(cachePath(), JSON.stringify(data));
    expect((await run()).filter((l) => l.includes('content/ephemeral'))).toEqual([]);
    write('c.md', doc({ ...VALID, name: 'C' }, 'Fixed in commit 3f9a2c71d so that the refresh works.\n'));
    expect((await run()).filter((l) => l.includes('content/ephemeral'))).toEqual([
      'c.md:7:17 content/ephemeral commit hash 3f9a2c7…: git history belongs in git (`git log`), not in memory; keep the durable fact',
    ]);
  });

  it('duplicates are found again once any file changes, appears or goes', async () => {
    await run();
    write('b.md', doc({ ...VALID, name: 'B' }, 'Something else entirely: the release notes go out on Fridays after the review meeting.\n'));
    expect((await run()).filter((l) => l.includes('content/duplicate'))).toEqual([]);
    write('d.md', doc({ ...VALID, name: 'D' }, PROSE));
    expect((await run()).filter((l) => l.includes('content/duplicate'))).toEqual([
      'd.md:7:1 content/duplicate near-duplicate of a.md (similarity 1.00, threshold 0.85); merge d.md into a.md or remove one',
    ]);
    rmSync(join(memory, 'a.md'));
    expect((await run()).filter((l) => l.includes('content/duplicate'))).toEqual([]);
  });

  it('a corrupt cache is ignored and rewritten; files changed in the last two seconds are not kept', async () => {
    const first = await run();
    writeFileSync(cachePath(), '{"version":');
    expect(await run()).toEqual(first);
    expect(JSON.parse(readFileSync(cachePath(), 'utf8')).files['a.md'].key).toMatch(/^\d+:/);
    rmSync(stateOf(memory), { recursive: true });
    expect(await run(Date.now())).toEqual(first);
    const fresh = JSON.parse(readFileSync(cachePath(), 'utf8'));
    expect(Object.keys(fresh.files)).toEqual([]);
    expect(fresh.whole).toBeUndefined();
  });
});
