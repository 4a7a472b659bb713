// checkpoint/cli.ts: what Claude Code reads from the Stop hook: one JSON object on stdout when it asks,
// otherwise a note on stderr (checkpoint.test.ts holds when it asks and the wait).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/cli.js';
import { runCli } from '../../helpers/run.js';
import { askText } from '../../../src/commands/checkpoint/ask.js';

function project(used: number): { cwd: string; input: string } {
  const cwd = tempDir('memctx-checkpoint-cli-');
  const transcript = join(cwd, 'session.jsonl');
  const user = { type: 'user', uuid: 'u0', sessionId: 's1', message: { role: 'user', content: 'Add rate limiting' } };
  const assistant = { type: 'assistant', uuid: 'a1', sessionId: 's1', isSidechain: false, message: { id: 'msg_a1', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [{ type: 'text', text: 'Done.' }], usage: { input_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: used - 10, output_tokens: 5 } } };
  writeFileSync(transcript, `${JSON.stringify(user)}\n${JSON.stringify(assistant)}\n`);
  return { cwd, input: JSON.stringify({ session_id: 's1', transcript_path: transcript, cwd, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'Done.' }) };
}

describe('memctx checkpoint: the answer to Claude Code', () => {
  it('asking: exactly {"decision":"block","reason":…} and a newline on stdout, nothing on stderr', async () => {
    const { cwd, input } = project(180_000);
    await runCli(['init'], { cwd });
    const r = await runCli(['checkpoint', '--at', '80,95', '--wait', '0'], { cwd, input });
    const reason = askText({ percent: 90, used: 180_000, window: 200_000, threshold: 80, sessionId: 's1', target: 500, max: 650 });
    expect(r).toEqual({ code: 0, stdout: `${JSON.stringify({ decision: 'block', reason })}\n`, stderr: '' });
  });

  it('not asking: why, on stderr, unless --quiet', async () => {
    const { cwd, input } = project(20_000);
    await runCli(['init'], { cwd });
    expect(await runCli(['checkpoint', '--wait', '0'], { cwd, input })).toEqual({ code: 0, stdout: '', stderr: 'memctx checkpoint: 10%: below 80%\n' });
    expect(await runCli(['--quiet', 'checkpoint', '--wait', '0'], { cwd, input })).toEqual({ code: 0, stdout: '', stderr: '' });
  });
});
