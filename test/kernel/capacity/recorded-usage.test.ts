// capacity/recorded-usage.ts: the status line's figure from a transcript's last recorded usage.
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, removeDir } from '../../helpers/cli.js';
import { fromTranscript } from '../../../src/kernel/capacity/recorded-usage.js';

let dir: string;
beforeAll(() => {
  dir = copyFixture('transcripts');
});
afterAll(() => removeDir(resolve(dir, '..')));

describe('fromTranscript', () => {
  it("takes Claude Code's last main-context usage and its model, a path relative to cwd", () => {
    expect(fromTranscript('claude-session.jsonl', dir)).toEqual({ used: 161_506, recordedWindow: undefined, model: 'claude-sonnet-4-5-20250929' });
  });

  it("takes Codex's last token_count with the window it records", () => {
    const r = fromTranscript(join(dir, 'codex-session.jsonl'), '/');
    expect(r?.recordedWindow).toBeGreaterThan(0);
    expect(r?.used).toBeGreaterThan(0);
  });

  it('gives nothing for a format that records no usage, and throws for a missing file', () => {
    expect(fromTranscript('session.md', dir)).toBeUndefined();
    expect(() => fromTranscript('no-such.jsonl', dir)).toThrow(/no such file/);
  });
});
