// transcript/formats/gemini.ts: Gemini CLI sessions, as one JSON document or as JSONL.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../../../helpers/cli.js';
import { runMemctx } from '../../../helpers/run.js';
import { extractFacts, readTranscript } from '../../../../src/kernel/transcript/index.js';
import { readGeminiTranscript } from '../../../../src/kernel/transcript/formats/gemini.js';

const GEMINI = join(FIXTURES, 'transcripts', 'gemini');

describe('Gemini CLI sessions', () => {
  const expected = {
    goal: ['Add a --json flag to the `entire status` command so scripts can read it'],
    progress: ['The flag is in place; the JSON printer still has to be written, so TestStatusJSON fails for now.', 'Add the --json flag'],
    decisions: ['I chose encoding/json over a template because the output must stay stable for scripts.'],
    blockers: ['`go test ./cmd/entire/cli/ -run TestStatusJSON` fails: TestStatusJSON'],
    nextSteps: ['Print status as JSON', 'Test the JSON output'],
    changedFiles: ['cmd/entire/cli/status.go', 'cmd/entire/cli/status_json_test.go'],
  };
  for (const name of ['session-2026-01-21T19-02-de1ed521.json', 'session-de1ed521.jsonl']) {
    it(`${name}: detected, its recorded tokens used, its facts read`, () => {
      const t = readTranscript(readFileSync(join(GEMINI, name), 'utf8'));
      expect(t.format).toBe('gemini');
      expect(t.usage).toMatchObject({ used: 21034, source: 'gemini-tokens', model: 'gemini-2.5-pro' });
      const f = extractFacts(t, { cwd: '/home/sam/cli' });
      expect({ ...f, changedFiles: f.changedFiles.map((c) => c.path) }).toEqual(expected);
    });
  }
  it('status: recorded tokens against the Gemini window; without tokens, counted (not 0)', async () => {
    const r = await runMemctx(['--json', 'status', join(GEMINI, 'session-2026-01-21T19-02-de1ed521.json')], { cwd: GEMINI });
    expect(JSON.parse(r.stdout)).toMatchObject({ format: 'gemini', used: 21034, window: 1_048_576, source: 'recorded', level: 'green' });
    const counted = JSON.parse((await runMemctx(['--json', 'status', join(GEMINI, 'session-no-tokens.json')], { cwd: GEMINI })).stdout);
    expect(counted).toMatchObject({ format: 'gemini', source: 'counted', window: 1_048_576 });
    expect(counted.used).toBeGreaterThan(300);
  });
});

describe('readGeminiTranscript', () => {
  it('JSONL: $set lines update the header, a message written again under its id replaces the first copy', () => {
    const lines = [
      { sessionId: 's', projectHash: 'h', startTime: '2026-01-21T19:02:00Z' },
      { id: 'u1', type: 'user', content: [{ text: 'Fix the build' }] },
      { id: 'g1', type: 'gemini', content: 'Running it.', toolCalls: [{ id: 'c1', name: 'run_shell_command', args: { command: 'make' } }], tokens: { input: 900, total: 950 }, model: 'gemini-2.5-flash' },
      { $set: { lastUpdated: '2026-01-21T19:05:00Z' } },
      { id: 'g1', type: 'gemini', content: 'Running it.', toolCalls: [{ id: 'c1', name: 'run_shell_command', args: { command: 'make' }, status: 'error', result: [{ functionResponse: { response: { error: 'make: *** no rule' } } }] }], tokens: { input: 0, total: 1000 }, model: 'gemini-2.5-pro' },
      { id: 'i1', type: 'info', content: 'ignored' },
    ];
    const t = readGeminiTranscript(lines.map((l) => JSON.stringify(l)).join('\n'));
    expect(t.items.map((i) => [i.role, i.kind, i.text, i.line, i.isError ?? false])).toEqual([
      ['user', 'message', 'Fix the build', 2, false],
      ['assistant', 'message', 'Running it.', 5, false],
      ['assistant', 'tool_call', expect.stringContaining('make'), 5, false],
      ['tool', 'tool_result', 'make: *** no rule', 5, true],
    ]);
    // `input` 0 is no prompt size: `total` stands; the model is the last copy's
    expect([t.usage, t.model]).toEqual([{ used: 1000, source: 'gemini-tokens', line: 5, model: 'gemini-2.5-pro' }, 'gemini-2.5-pro']);
  });
});
