// A genuine Claude Code 2.1.330 transcript (written by `npm run test:claude` against its scripted
// stand-in; Claude Code's own prompt elided): status, compact and flush read its new line types.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, REPO, removeDir, tempDir } from '../../../../helpers/cli.js';
import { runMemctx } from '../../../../helpers/run.js';

const TRANSCRIPT = join(FIXTURES, 'transcripts/claude-code-2.1.330/session.jsonl');

describe('a genuine Claude Code 2.1.330 transcript', () => {
  let dir: string;
  beforeAll(async () => {
    dir = tempDir();
    expect((await runMemctx(['init'], { cwd: dir })).code).toBe(0);
  });
  afterAll(() => removeDir(dir));

  it('status: the usage of the last response, Claude preset window', async () => {
    const result = await runMemctx(['--json', 'status', TRANSCRIPT], { cwd: dir });
    expect(result.code).toBe(0);
    const json = JSON.parse(result.stdout);
    expect([json.format, json.used, json.window, json.percent, json.level, json.model, json.notes]).toEqual(['claude', 168_406, 200_000, 84.2, 'yellow', 'claude-opus-5-5', []]);
  });

  it('compact: exact figures, every marked line kept', async () => {
    const out = join(dir, 'compacted.md');
    // Named relative to the repository: the rendition's heading names the file, and is counted.
    const result = await runMemctx(['--json', 'compact', 'fixtures/transcripts/claude-code-2.1.330/session.jsonl', '--keep-last', '0', '--out', out], { cwd: REPO });
    expect(result.code).toBe(0);
    const json = JSON.parse(result.stdout);
    expect([json.tokensBefore, json.tokensAfter, json.saved, json.marked, json.missing]).toEqual([2445, 590, 1855, 3, []]);
  });

  it('flush --transcript: goal, decision, blocker and next step', async () => {
    const result = await runMemctx(['flush', '--transcript', TRANSCRIPT, '--dry-run'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('## Goal\n\nAdd a retry helper for the payment client\n');
    expect(result.stdout).toContain('## Decisions\n\n- retry only idempotent requests, at most 3 times with exponential backoff.\n');
    expect(result.stdout).toContain('## Blockers\n\n- the sandbox gateway rejects the test card.\n');
    expect(result.stdout).toContain('## Next Steps\n\n- add jitter to the backoff.\n');
  });
});
