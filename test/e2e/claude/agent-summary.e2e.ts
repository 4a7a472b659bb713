// The agent writes its own session summary (issue 22 item 1), inside the real Claude Code with the
// hooks and MCP server `memctx init --agent claude` installs: past 80% of the context the Stop hook
// (`memctx checkpoint`) keeps the agent going with the request; the agent calls the `flush` MCP tool,
// which refuses a summary missing a field or over 650 tokens; SessionEnd keeps the agent's summary.
// One session file.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeVersion, makeWorld, memctx, runClaude, section, toolResults, unavailable, writeSettings, type SessionResult, type World } from './harness.js';
import { DEFAULT_WAIT_MS } from '../../../src/commands/checkpoint/schema.js';
import { requestText } from './stand-in.js';
import { recordFigure } from './figures.js';
import { stateOf } from '../../helpers/cli.js';

const PROMPT = 'Add rate limiting to the API';
const SUMMARY = {
  goal: 'Add rate limiting to the API',
  progress: ['Token bucket middleware in src/limit.js'],
  decisions: ['Token bucket, not a fixed window: bursts stay fair across clients'],
  changed_files: ['src/limit.js'],
  blockers: ['none'],
  next_steps: ['Tune the bucket size on staging'],
};
const LONG = { ...SUMMARY, progress: Array.from({ length: 40 }, (_, i) => `step ${i}: rewrote the limiter module and its tests for burst case ${i}`) };
const { next_steps: _dropped, ...MISSING } = SUMMARY;
const used = (tokens: number) => ({ input_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: tokens - 10 });

/** The session id the Stop hook's request named. */
function askedSession(body: unknown): string {
  const match = /session_id "([^"]+)"/.exec(requestText(body));
  if (!match) throw new Error('the request for a summary did not reach the model');
  return match[1];
}

describe.skipIf(unavailable)(`the agent's own summary past 80% in Claude Code ${claudeVersion}`, () => {
  let world: World;
  let session: SessionResult;
  let results: ReturnType<typeof toolResults>;

  beforeAll(async () => {
    world = makeWorld();
    expect(memctx(['init', '--agent', 'claude'], { cwd: world.project, env: { HOME: world.home } }).code).toBe(0);
    session = await runClaude(world, {
      prompt: PROMPT,
      allowedTools: ['Write', 'mcp__memctx__flush'],
      turns: [
        { content: [{ type: 'tool_use', name: 'Write', input: { file_path: join(world.project, 'src/limit.js'), content: 'export const BUCKET = 20;\n' } }], usage: used(100_000) },
        // This message ends the turn at 85% of 200,000: the Stop hook asks for the summary.
        { content: [{ type: 'text', text: 'The token bucket middleware is written.' }], usage: used(170_000) },
        (body) => ({ content: [{ type: 'tool_use', id: 'toolu_missing', name: 'mcp__memctx__flush', input: { ...MISSING, session_id: askedSession(body) } }], usage: used(171_000) }),
        (body) => ({ content: [{ type: 'tool_use', id: 'toolu_long', name: 'mcp__memctx__flush', input: { ...LONG, session_id: askedSession(body) } }], usage: used(172_000) }),
        (body) => ({ content: [{ type: 'tool_use', id: 'toolu_saved', name: 'mcp__memctx__flush', input: { ...SUMMARY, session_id: askedSession(body) } }], usage: used(173_000) }),
        { content: [{ type: 'text', text: 'Saved the session summary.' }], usage: used(174_000) },
      ],
    });
    results = toolResults(session.requests);
  });
  afterAll(() => world?.cleanup());

  it('the Stop hook kept the agent going once, with the instruction; the session then ended', () => {
    expect(session.code).toBe(0);
    expect(session.stdout.trim()).toBe('Saved the session summary.');
    expect(session.agentRequests.map((r) => r.turn)).toEqual([0, 1, 2, 3, 4, 5]);
    const asked = requestText(session.agentRequests[2].body);
    expect(asked).toContain('memctx: the context is 85% full (170,000 of 200,000 tokens), past 80%.');
    expect(asked).toContain('Aim for about 500 tokens, at most 650');
    expect(asked).toContain('Each decision says what was decided and why.');
    const sessionId = session.transcript.find((line) => line.sessionId)?.sessionId;
    expect(askedSession(session.agentRequests[2].body)).toBe(sessionId);
  });

  it('the flush tool refused the summary missing a field and the one over 650 tokens, and saved the third', () => {
    expect(results.get('toolu_missing')).toEqual({ isError: true, text: expect.stringContaining('the session summary is missing next_steps: nothing was written') });
    expect(results.get('toolu_long')).toEqual({ isError: true, text: expect.stringMatching(/the session summary is \d+ tokens, over the maximum of 650: nothing was written\. Shorten it by at least \d+ tokens .* the longest fields: progress \d+ tokens/) });
    // Claude Code hands the model the structured content.
    const saved = results.get('toolu_saved')!;
    expect(saved.isError).toBe(false);
    expect(JSON.parse(saved.text)).toMatchObject({ path: expect.stringMatching(/^\/memories\/sessions\/.+\.md$/), written: true, replaced: false, warnings: [] });
  });

  it('exactly one session file: the agent\'s summary, kept by SessionEnd', () => {
    const files = readdirSync(join(world.project, '.memory/sessions'));
    expect(files).toHaveLength(1);
    const text = readFileSync(join(world.project, '.memory/sessions', files[0]), 'utf8');
    const sessionId = session.transcript.find((line) => line.sessionId)?.sessionId;
    expect(text).toContain(`session_id: ${sessionId}\n`);
    expect(text).toContain('written_by: agent\n');
    expect(section(text, 'Goal')).toBe(SUMMARY.goal);
    expect(section(text, 'Progress')).toBe(`- ${SUMMARY.progress[0]}`);
    expect(section(text, 'Decisions')).toBe(`- ${SUMMARY.decisions[0]}`);
    expect(section(text, 'Changed Files')).toBe('- src/limit.js');
    expect(section(text, 'Next Steps')).toBe(`- ${SUMMARY.next_steps[0]}`);
    const log = readFileSync(join(stateOf(join(world.project, '.memory')), 'flush.log'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => line.replace(/^\S+ /, '').replace(/ \(\d+ tokens\)/, ''));
    // How long the Stop hook waited for Claude Code to write the message that had just ended.
    const waited = /; waited (\d+) ms for the transcript$/.exec(log[0]);
    recordFigure('checkpoint: wait for the transcript inside a real Stop hook (ms)', waited ? Number(waited[1]) : 0);
    log[0] = log[0].replace(/; waited \d+ ms for the transcript$/, '');
    expect(log).toEqual([
      `Stop session=${sessionId} asked the agent for its summary at 85% (threshold 80%)`,
      `SessionEnd(other) session=${sessionId} updated sessions/${files[0]}; kept the agent's summary sessions/${files[0]}; nothing happened after it`,
    ]);
  });
});

// Why checkpoint waits: at a Stop hook's start Claude Code has not always written the message that
// just ended. A probe hook that keeps the agent going (Claude Code allows 8 such continuations in a
// row) records, at each Stop, whether that message is on disk and how long it took to arrive.
describe.skipIf(unavailable)(`the transcript at a Stop hook's start in Claude Code ${claudeVersion}`, () => {
  let world: World;
  let states: string[];

  beforeAll(async () => {
    world = makeWorld();
    const probe = join(world.root, 'probe.cjs');
    const out = join(world.logs, 'probe');
    writeFileSync(
      probe,
      `const fs = require('fs');
let s = ''; process.stdin.on('data', (d) => (s += d)).on('end', () => {
  const h = JSON.parse(s);
  const snippet = JSON.stringify(h.last_assistant_message.slice(0, 40)).slice(1, -1);
  const read = () => { try { return fs.readFileSync(h.transcript_path, 'utf8'); } catch { return ''; } };
  let state = read().includes(snippet) ? 'present' : 'late';
  const t0 = Date.now();
  while (state === 'late' && Date.now() - t0 < ${DEFAULT_WAIT_MS}) if (read().includes(snippet)) state = 'late:' + (Date.now() - t0);
  fs.appendFileSync(${JSON.stringify(out)}, state + '\\n');
  console.log(JSON.stringify({ decision: 'block', reason: 'go on' }));
});
`,
    );
    writeSettings(world, { hooks: { Stop: [{ hooks: [{ type: 'command', command: `node ${probe}` }] }] } });
    const turns = Array.from({ length: 12 }, (_, i) => ({ content: [{ type: 'text' as const, text: `answer ${i} ${'words '.repeat(i * 20)}` }] }));
    await runClaude(world, { prompt: 'hi', turns });
    states = readFileSync(out, 'utf8').split('\n').filter(Boolean);
  });
  afterAll(() => world?.cleanup());

  it(`every message that was late reached the transcript within checkpoint's ${DEFAULT_WAIT_MS} ms wait`, () => {
    expect(states.length).toBeGreaterThanOrEqual(5);
    expect(states.filter((s) => s === 'late')).toEqual([]);
    const late = states.filter((s) => s.startsWith('late:')).map((s) => Number(s.slice(5)));
    recordFigure('Stop hooks that started before the ended message was on disk', late.length / states.length);
    if (late.length) recordFigure('the slowest of those messages arrived after (ms)', Math.max(...late));
  });
});

// Opt-in: the same checkpoint as a PostToolUse hook asks in the middle of a long turn, right after
// the tool call that crossed 80%, and only once.
describe.skipIf(unavailable)(`checkpoint as a PostToolUse hook in Claude Code ${claudeVersion}`, () => {
  let world: World;
  let session: SessionResult;

  beforeAll(async () => {
    world = makeWorld();
    expect(memctx(['init'], { cwd: world.project }).code).toBe(0);
    writeSettings(world, { hooks: { PostToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: 'memctx checkpoint', timeout: 30 }] }] } });
    session = await runClaude(world, {
      prompt: PROMPT,
      allowedTools: ['Write'],
      turns: [
        { content: [{ type: 'tool_use', name: 'Write', input: { file_path: join(world.project, 'a.js'), content: 'a' } }], usage: used(100_000) },
        { content: [{ type: 'tool_use', name: 'Write', input: { file_path: join(world.project, 'b.js'), content: 'b' } }], usage: used(170_000) },
        { content: [{ type: 'tool_use', name: 'Write', input: { file_path: join(world.project, 'c.js'), content: 'c' } }], usage: used(172_000) },
        { content: [{ type: 'text', text: 'Done.' }], usage: used(173_000) },
      ],
    });
  });
  afterAll(() => world?.cleanup());

  it('the request reaches the model after the tool call that crossed 80%, once', () => {
    expect(session.code).toBe(0);
    const asked = session.agentRequests.map((r) => (requestText(r.body).match(/memctx: the context is \d+% full/g) ?? []).length);
    // the instruction stays in the conversation once it is there: it appears from the third request on, once
    expect(asked).toEqual([0, 0, 1, 1]);
    expect(requestText(session.agentRequests[2].body)).toContain('memctx: the context is 85% full (170,000 of 200,000 tokens), past 80%.');
    const log = readFileSync(join(stateOf(join(world.project, '.memory')), 'flush.log'), 'utf8').trim().split('\n');
    expect(log.map((line) => line.replace(/^\S+ /, '').replace(/ session=\S+/, '').replace(/; waited \d+ ms for the transcript$/, ''))).toEqual(['PostToolUse asked the agent for its summary at 85% (threshold 80%)']);
  });
});
