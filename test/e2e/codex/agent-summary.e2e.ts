// The agent writes its own session summary inside the real Codex CLI, with the hooks
// `memctx init --agent codex` writes to .codex/hooks.json: past 80% of gpt-5.5's window the Stop hook
// (`memctx checkpoint`) keeps the agent going with the request; the agent runs
// `memctx flush --agent-summary` through its shell tool (mcp-memory.e2e.ts covers the MCP server), which
// refuses a summary missing a field; SessionEnd keeps the agent's summary. One session file.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codexVersion, makeWorld, memctx, runCodex, unavailable, type SessionResult, type World } from './harness.js';
import { inputText } from './stand-in.js';
import { parseMemoryText } from '../../../src/kernel/store/parse.js';
import { parseBody } from '../../../src/kernel/summary/render.js';
import { builtInTemplate } from '../../../src/kernel/summary/templates.js';
import { stateOf } from '../../helpers/cli.js';

if (unavailable) console.log(`skipped: ${unavailable}`);

const PROMPT = 'Add rate limiting to the API';
/** gpt-5.5's window as Codex records it; 87% of it ends the second turn. */
const WINDOW = 258_400;
const HIGH = Math.round(WINDOW * 0.87);

const q = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
function flushCommand(sessionId: string, next: boolean): string {
  const args = ['--goal', PROMPT, '--progress', 'Token bucket middleware in src/limit.js', '--decision', 'Token bucket, not a fixed window: bursts stay fair', '--changed', 'src/limit.js', '--blocker', 'none'];
  if (next) args.push('--next', 'Tune the bucket size on staging');
  return `memctx flush --agent-summary --session-id ${sessionId} ${args.map(q).join(' ')}`;
}

function askedSession(body: unknown): string {
  const match = /--session-id (\S+)/.exec(inputText(body));
  if (!match) throw new Error('the request for a summary did not reach the model');
  return match[1];
}

describe.skipIf(unavailable)(`the agent's own summary past 80% in Codex ${codexVersion}`, () => {
  let world: World;
  let session: SessionResult;

  beforeAll(async () => {
    world = makeWorld();
    expect(memctx(['init', '--agent', 'codex'], { cwd: world.project }).code).toBe(0);
    session = await runCodex(world, {
      prompt: PROMPT,
      turns: [
        { items: [{ type: 'function_call', name: 'exec_command', arguments: { cmd: "mkdir -p src && printf 'export const BUCKET = 20;\\n' > src/limit.js" } }], inputTokens: 100_000 },
        { items: [{ type: 'message', text: 'The token bucket middleware is written.' }], inputTokens: HIGH },
        (body) => ({ items: [{ type: 'function_call', name: 'exec_command', call_id: 'call_missing', arguments: { cmd: flushCommand(askedSession(body), false), login: false } }], inputTokens: HIGH + 1000 }),
        (body) => ({ items: [{ type: 'function_call', name: 'exec_command', call_id: 'call_saved', arguments: { cmd: flushCommand(askedSession(body), true), login: false } }], inputTokens: HIGH + 2000 }),
        { items: [{ type: 'message', text: 'Saved the session summary.' }], inputTokens: HIGH + 3000 },
      ],
    });
  });
  afterAll(() => world?.cleanup());

  it('the Stop hook kept the agent going with the instruction, once', () => {
    expect(session.code).toBe(0);
    expect(session.requests.filter((r) => r.path.endsWith('/responses'))).toHaveLength(5);
    const asked = inputText(session.requests[2].body);
    expect(asked).toContain(`memctx: the context is 87% full (${(HIGH + 10).toLocaleString('en-US')} of ${WINDOW.toLocaleString('en-US')} tokens), past 80%.`);
    expect(asked).toContain('Each decision says what was decided and why.');
  });

  it('memctx flush --agent-summary refused the summary without next steps and wrote the complete one', () => {
    const outputs = session.requests.map((r) => inputText(r.body));
    expect(outputs[3]).toContain('the session summary is missing next_steps: nothing was written');
    expect(outputs[4]).toMatch(/wrote sessions\/\S+\.md \(\d+ tokens\)/);
  });

  it('exactly one session file: the agent\'s summary, kept by SessionEnd', () => {
    const files = readdirSync(join(world.project, '.memory/sessions'));
    expect(files).toHaveLength(1);
    const text = readFileSync(join(world.project, '.memory/sessions', files[0]), 'utf8');
    const parsed = parseMemoryText(files[0], text, { mtimeMs: 0, size: 0 });
    const sessionId = askedSession(session.requests[2].body);
    expect(parsed.data).toMatchObject({ session_id: sessionId, written_by: 'agent' });
    expect(parseBody(builtInTemplate('session'), parsed.body)).toEqual({
      goal: [PROMPT],
      progress: ['Token bucket middleware in src/limit.js'],
      decisions: ['Token bucket, not a fixed window: bursts stay fair'],
      changedFiles: ['src/limit.js'],
      blockers: ['none'],
      nextSteps: ['Tune the bucket size on staging'],
    });
    const log = readFileSync(join(stateOf(join(world.project, '.memory')), 'flush.log'), 'utf8');
    const lines = log.split('\n').filter(Boolean).map((line) => line.replace(/^\S+ /, '').replace(/ \(\d+ tokens\)/, '').replace(/; waited \d+ ms for the transcript$/, ''));
    expect(lines).toEqual([
      `Stop session=${sessionId} asked the agent for its summary at 87% (threshold 80%)`,
      `SessionEnd(other) session=${sessionId} updated sessions/${files[0]}; kept the agent's summary sessions/${files[0]}; nothing happened after it`,
    ]);
  });
});
