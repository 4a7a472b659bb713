// `memctx checkpoint`, the Stop hook that asks the agent for its session summary once per threshold
// crossing, waiting briefly for a transcript Claude Code has not finished writing.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { tempDir, stateOf } from '../../helpers/cli.js';
import { runCli } from '../../helpers/run.js';
import { checkpoint as checkpointAction } from '../../../src/commands/checkpoint/checkpoint.js';

let project: string;
let mem: string;
let transcript: string;

beforeEach(async () => {
  project = tempDir('memctx-checkpoint-');
  mem = join(project, '.memory');
  transcript = join(project, 'session.jsonl');
  expect((await runCli(['init'], { cwd: project })).code).toBe(0);
});

/** One assistant line whose recorded usage is `used` tokens (of the default 200,000 window). */
function assistant(text: string, used: number, id = text): string {
  return `${JSON.stringify({ type: 'assistant', uuid: id, sessionId: 'sess-c', isSidechain: false, message: { id: `msg_${id}`, role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [{ type: 'text', text }], usage: { input_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: used - 10, output_tokens: 5 } } })}\n`;
}
const USER = `${JSON.stringify({ type: 'user', uuid: 'u0', sessionId: 'sess-c', message: { role: 'user', content: 'Add rate limiting' } })}\n`;

const stop = (o: object = {}) => JSON.stringify({ session_id: 'sess-c', transcript_path: transcript, cwd: project, hook_event_name: 'Stop', stop_hook_active: false, ...o });
const checkpoint = (input: string, args: string[] = []) => runCli(['checkpoint', '--wait', '500', ...args], { cwd: project, input });
const log = () => readFileSync(join(stateOf(mem), 'flush.log'), 'utf8');

/**
 * The action `memctx checkpoint --wait 5000` runs, with the wait's sleep replaced: `write` lands the
 * late transcript at the first pause, so the hook has certainly looked once and found it missing.
 */
async function checkpointLate(input: string, write: () => void) {
  let written = false;
  const sleep = async () => {
    if (!written) write();
    written = true;
  };
  return await checkpointAction({ wait: 5000 }, { cwd: project, env: {}, home: project, now: () => new Date(), readStdin: async () => input, sleep });
}

describe('memctx checkpoint', () => {
  it('past 80%: blocks the stop with an instruction naming the tool, the session, the six fields and the limits; then once only', async () => {
    writeFileSync(transcript, USER + assistant('Middleware written.', 170_000));
    const first = await checkpoint(stop({ last_assistant_message: 'Middleware written.' }));
    expect(first.code).toBe(0);
    const answer = JSON.parse(first.stdout);
    expect(answer.decision).toBe('block');
    expect(answer.reason).toContain('the context is 85% full (170,000 of 200,000 tokens), past 80%.');
    expect(answer.reason).toContain('call the memctx `flush` MCP tool with session_id "sess-c"');
    expect(answer.reason).toContain('goal, progress, decisions, changed_files, blockers, next_steps (write "none" for one with nothing in it)');
    expect(answer.reason).toContain('Aim for about 500 tokens, at most 650');
    expect(answer.reason).toContain('Each decision says what was decided and why.');
    expect(log()).toMatch(/Stop session=sess-c asked the agent for its summary at 85% \(threshold 80%\)\n$/);
    // the agent saved it and stops again: Claude Code says stop_hook_active; and later stops: already asked
    for (const again of [stop({ stop_hook_active: true }), stop()]) {
      const r = await checkpoint(again);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('');
    }
    expect(JSON.parse(readFileSync(join(stateOf(mem), 'checkpoints.json'), 'utf8')).sessions['sess-c'].asked).toEqual([80]);
  });

  it('below the threshold asks nothing; --cli asks for memctx flush --agent-summary', async () => {
    writeFileSync(transcript, USER + assistant('Started.', 100_000));
    const low = await checkpoint(stop());
    expect({ code: low.code, stdout: low.stdout }).toEqual({ code: 0, stdout: '' });
    expect(low.stderr).toBe('memctx checkpoint: 50%: below 80%\n');
    const cli = await checkpoint(stop(), ['--at', '40', '--cli']);
    expect(JSON.parse(cli.stdout).reason).toContain('run `memctx flush --agent-summary --session-id sess-c --goal "…"');
    // a 1M-token session: 100,000 tokens is 10%
    const wide = await checkpoint(stop({ session_id: 'sess-w' }), ['--at', '40', '--model', 'sonnet[1m]']);
    expect({ stdout: wide.stdout, stderr: wide.stderr }).toEqual({ stdout: '', stderr: 'memctx checkpoint: 10%: below 40%\n' });
  });

  it('waits for the message that just ended when Claude Code has not written it yet', async () => {
    writeFileSync(transcript, USER + assistant('Looking at the routes.', 100_000));
    // Read at once, the transcript says 50%; the message that ended (at 85%) lands while the hook waits.
    const r = await checkpointLate(stop({ last_assistant_message: 'Middleware written.' }), () => appendFileSync(transcript, assistant('Middleware written.', 170_000)));
    expect(r.ask).toContain('85% full');
    expect(log()).toMatch(/\(threshold 80%\); waited \d+ ms for the transcript\n$/);
  });

  it('as a PostToolUse hook, waits for the tool call that just ran (by its tool_use_id)', async () => {
    writeFileSync(transcript, USER + assistant('Looking at the routes.', 100_000));
    const call = JSON.stringify({ type: 'assistant', uuid: 'a2', sessionId: 'sess-c', message: { id: 'msg_a2', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [{ type: 'tool_use', id: 'toolu_7', name: 'Write', input: {} }], usage: { input_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 169_990, output_tokens: 5 } } });
    const input = stop({ hook_event_name: 'PostToolUse', tool_name: 'Write', tool_use_id: 'toolu_7' });
    // Read at once, the transcript says 50%; the call's line (at 85%) lands while the hook waits.
    const r = await checkpointLate(input, () => appendFileSync(transcript, `${call}\n`));
    expect(r.ask).toContain('85% full');
    expect(log()).toMatch(/PostToolUse session=sess-c asked the agent for its summary at 85% \(threshold 80%\); waited \d+ ms for the transcript\n$/);
  });

  it('waits for the transcript file itself', async () => {
    const r = await checkpointLate(stop({ last_assistant_message: 'Middleware written.' }), () => writeFileSync(transcript, USER + assistant('Middleware written.', 170_000)));
    expect(r.ask).toContain('85% full');
  });

  it('the wait is bounded: a message that never arrives leaves the usage on disk, and says so', async () => {
    writeFileSync(transcript, USER + assistant('Looking at the routes.', 170_000));
    const r = await runCli(['checkpoint', '--wait', '300'], { cwd: project, input: stop({ last_assistant_message: 'A message never written' }) });
    expect(JSON.parse(r.stdout).reason).toContain('85% full');
    // bounded: the log names the 300 ms it waited
    expect(log()).toContain('(the message that just ended was not in the transcript after 300 ms; read what was there)');
  });

  it('no transcript at all: nothing asked, the problem logged, exit 0', async () => {
    const r = await runCli(['checkpoint', '--wait', '100'], { cwd: project, input: stop() });
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 0, stdout: '' });
    expect(r.stderr).toMatch(/^memctx checkpoint: .*session\.jsonl/);
    expect(log()).toContain('Stop session=sess-c checkpoint error:');
  });

  it('bad hook input and an unknown option never fail the session', async () => {
    for (const [input, args] of [['not json', []], ['{"session_id": 5}', []], [stop(), ['--bogus']]] as const) {
      const r = await runCli(['checkpoint', ...args], { cwd: project, input });
      expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 0, stdout: '' });
      expect(r.stderr).toMatch(/^memctx checkpoint: /);
    }
  });

  it("a bad flag value is refused by checkpoint's schema, logged with the flag's name, and never fails the session", async () => {
    writeFileSync(transcript, USER + assistant('Middleware written.', 170_000));
    const cases: [string[], string][] = [
      [['--wait', 'soon'], '--wait must be a whole number from 0 to 30000, got "soon"'],
      [['--wait', '60000'], '--wait must be a whole number from 0 to 30000, got 60000'],
      [['--at', '150'], '--at takes percentages above 0 and at most 100, got "150"'],
      [['--window', 'huge'], '--window'],
    ];
    for (const [args, message] of cases) {
      const r = await runCli(['checkpoint', ...args], { cwd: project, input: stop() });
      expect({ args, code: r.code, stdout: r.stdout }).toEqual({ args, code: 0, stdout: '' });
      expect(r.stderr).toContain(`memctx checkpoint: ${message}`);
      expect(log()).toContain(message);
    }
  });

  it('takes its thresholds from flush.askAt in the configuration; a bad value is logged and 80% applies', async () => {
    writeFileSync(transcript, USER + assistant('Halfway.', 120_000));
    writeFileSync(join(mem, 'config.json'), JSON.stringify({ flush: { askAt: [50, 90] } }));
    expect(JSON.parse((await checkpoint(stop())).stdout).reason).toContain('60% full (120,000 of 200,000 tokens), past 50%.');
    writeFileSync(join(mem, 'config.json'), JSON.stringify({ flush: { askAt: 'often' } }));
    writeFileSync(transcript, USER + assistant('Halfway.', 170_000));
    const r = await runCli(['checkpoint', '--wait', '100'], { cwd: project, input: stop({ session_id: 'sess-d' }) });
    expect(JSON.parse(r.stdout).reason).toContain('past 80%.');
    expect(log()).toContain('"flush.askAt" must be a percentage or a list of them (above 0, at most 100), got "often"; asking at 80%');
  });
});

describe('init --agent claude', () => {
  it('installs the checkpoint as a Stop hook, once', async () => {
    for (let i = 0; i < 2; i++) expect((await runCli(['init', '--agent', 'claude'], { cwd: project })).code).toBe(0);
    const settings = JSON.parse(readFileSync(join(project, '.claude/settings.json'), 'utf8'));
    expect(settings.hooks.Stop).toEqual([{ hooks: [{ type: 'command', command: 'memctx checkpoint', timeout: 30 }] }]);
  });

  it('init --agent codex writes the same hooks into .codex/hooks.json, keeping the hooks there', async () => {
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(project, '.codex'));
    writeFileSync(join(project, '.codex/hooks.json'), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'make lint' }] }] } }));
    for (let i = 0; i < 2; i++) expect((await runCli(['init', '--agent', 'codex'], { cwd: project })).code).toBe(0);
    expect(JSON.parse(readFileSync(join(project, '.codex/hooks.json'), 'utf8'))).toEqual({
      hooks: {
        Stop: [{ hooks: [{ type: 'command', command: 'make lint' }] }, { hooks: [{ type: 'command', command: 'memctx checkpoint', timeout: 30 }] }],
        SessionEnd: [{ hooks: [{ type: 'command', command: 'memctx flush --hook', timeout: 3 }] }],
        PreCompact: [{ hooks: [{ type: 'command', command: 'memctx flush --hook', timeout: 10 }] }],
      },
    });
  });
});
