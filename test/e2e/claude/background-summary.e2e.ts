// Asking when the session ends (issue 32 item 5), inside the real Claude Code: with the hooks
// `memctx init --agent claude --summarize-with claude` writes, the SessionEnd hook writes the offline
// summary, then a detached worker runs the real `claude -p` (found on the hook's PATH) against the same
// stand-in, which answers the summary request as scripted. A six-field answer replaces the offline
// summary (marked as the agent's); prose, or no answer within the time limit, leaves it.
import { existsSync, readdirSync, readFileSync, symlinkSync, watch } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claude, claudeVersion, makeWorld, memctx, runClaude, section, unavailable, writeSettings, type SessionResult, type World } from './harness.js';
import { requestText } from './stand-in.js';
import { recordFigure } from './figures.js';
import { stateOf } from '../../helpers/cli.js';

const PROMPT = 'Add rate limiting to the API';
const ANSWER = {
  goal: 'Add rate limiting to the API',
  progress: ['Token bucket middleware in src/limit.js; the session ended with it written'],
  decisions: ['Token bucket, not a fixed window: bursts stay fair across clients'],
  changed_files: ['src/limit.js'],
  blockers: ['none'],
  next_steps: ['Wire the limiter into the gateway'],
};

/** Resolves once the file is gone (or was never there). */
function gone(path: string): Promise<void> {
  return new Promise((resolve) => {
    const watcher = watch(dirname(path), () => {
      if (!existsSync(path)) {
        watcher.close();
        resolve();
      }
    });
    if (!existsSync(path)) {
      watcher.close();
      resolve();
    }
  });
}

interface Ended {
  world: World;
  session: SessionResult;
  sessionId: string;
  file: string;
  text: string;
  log: string[];
}

/** One session that writes a file and ends; `claude` on the hooks' PATH; the worker waited for. */
async function endSession(options: { summaryText: string; summaryDelayMs?: number; hook?: string }): Promise<Ended> {
  const world = makeWorld();
  expect(memctx(['init', '--agent', 'claude', '--summarize-with', 'claude'], { cwd: world.project, env: { HOME: world.home } }).code).toBe(0);
  if (options.hook) {
    const settings = JSON.parse(readFileSync(join(world.project, '.claude/settings.json'), 'utf8'));
    settings.hooks.SessionEnd[0].hooks[0].command = options.hook;
    writeSettings(world, settings);
  }
  symlinkSync(claude.bin!, join(world.root, 'bin/claude'));
  const state = stateOf(join(world.project, '.memory'));
  let sessionId = '';
  const session = await runClaude(world, {
    prompt: PROMPT,
    allowedTools: ['Write'],
    turns: [
      { content: [{ type: 'tool_use', name: 'Write', input: { file_path: join(world.project, 'src/limit.js'), content: 'export const BUCKET = 20;\n' } }] },
      { content: [{ type: 'text', text: 'The token bucket middleware is written.' }] },
    ],
    summaryText: options.summaryText,
    summaryDelayMs: options.summaryDelayMs,
    // the worker removes its job file last: the stand-in stays up until then
    beforeClose: async () => {
      const sessions = join(world.project, '.memory/sessions');
      const [written] = existsSync(sessions) ? readdirSync(sessions) : [];
      sessionId = written ? (/\nsession_id: (\S+)/.exec(readFileSync(join(sessions, written), 'utf8'))?.[1] ?? '') : '';
      await gone(join(state, `summary-job-${sessionId}.json`));
    },
  });
  const [file, ...more] = readdirSync(join(world.project, '.memory/sessions'));
  expect(more).toEqual([]);
  const log = readFileSync(join(state, 'flush.log'), 'utf8').trim().split('\n').map((line) => line.replace(/^\S+ /, ''));
  return { world, session, sessionId, file, text: readFileSync(join(world.project, '.memory/sessions', file), 'utf8'), log };
}

describe.skipIf(unavailable)(`the agent asked at SessionEnd, in the background, in Claude Code ${claudeVersion}`, () => {
  let ended: Ended;
  beforeAll(async () => {
    ended = await endSession({ summaryText: `Here is the summary:\n${JSON.stringify(ANSWER)}` });
  });
  afterAll(() => ended?.world.cleanup());

  it("the session ended normally; the summary on disk is the agent's, and says so", () => {
    expect(ended.session.code).toBe(0);
    expect(ended.session.stdout.trim()).toBe('The token bucket middleware is written.');
    const { text } = ended;
    expect(text).toContain(`\nsession_id: ${ended.sessionId}\n`);
    expect(text).toContain('\nwritten_by: agent\nwritten_with: claude -p\n');
    expect(section(text, 'Goal')).toBe(ANSWER.goal);
    expect(section(text, 'Progress')).toBe(`- ${ANSWER.progress[0]}`);
    expect(section(text, 'Decisions')).toBe(`- ${ANSWER.decisions[0]}`);
    expect(section(text, 'Changed Files')).toBe('- src/limit.js');
    expect(section(text, 'Next Steps')).toBe(`- ${ANSWER.next_steps[0]}`);
  });

  it('claude -p was asked once: no tools, the rules, the draft and the transcript; its own hooks started nothing (one summary, one job)', () => {
    const asked = ended.session.requests.filter((r) => r.summary);
    expect(asked).toHaveLength(1);
    expect(asked[0].body.tools ?? []).toEqual([]);
    const text = requestText(asked[0].body);
    expect(text).toContain('No item over 5 lines: never paste a log, trace or diff (the 50-line rule)');
    expect(text).toContain("memctx's draft, read from the transcript and git without a model");
    expect(text).toContain(PROMPT);
    expect(ended.log).toEqual([
      expect.stringMatching(new RegExp(`^SessionEnd\\(other\\) session=${ended.sessionId} wrote sessions/${ended.file} \\(\\d+ tokens\\); asked claude for the summary in the background \\(at most 60 s\\)`)),
      expect.stringMatching(new RegExp(`^SessionEnd\\(other\\) session=${ended.sessionId} summary by claude -p: replaced the offline summary sessions/${ended.file} \\(prompt \\d+ tokens; claude -p reported \\d+ input and \\d+ output tokens\\)$`)),
    ]);
    recordFigure('background summary: prompt tokens of a two-turn session (o200k)', Number(/prompt (\d+) tokens/.exec(ended.log[1])![1]));
  });
});

describe.skipIf(unavailable)(`an answer that is not a summary leaves the offline one, in Claude Code ${claudeVersion}`, () => {
  const cases: Array<[string, Parameters<typeof endSession>[0], RegExp]> = [
    ['prose', { summaryText: 'The session added a token bucket limiter. Everything went well!' }, /error: summary by claude -p: (its answer is not JSON or YAML|its answer has none of the six fields).*; kept the offline summary/],
    [
      'no answer within the time limit',
      { summaryText: JSON.stringify(ANSWER), summaryDelayMs: 20_000, hook: 'memctx flush --hook --summarize-with claude --summarize-timeout 3' },
      /error: summary by claude -p: claude did not answer within 3 s \(stopped\); kept the offline summary/,
    ],
  ];
  const ends: Ended[] = [];
  afterAll(() => ends.forEach((e) => e.world.cleanup()));

  for (const [name, options, why] of cases) {
    it(`${name}: the offline summary stays, one line in the log says why`, async () => {
      const ended = await endSession(options);
      ends.push(ended);
      expect(ended.session.code).toBe(0);
      expect(ended.text).not.toContain('written_by');
      expect(section(ended.text, 'Goal')).toBe(PROMPT);
      expect(ended.log).toHaveLength(2);
      expect(ended.log[0]).toContain('asked claude for the summary in the background');
      expect(ended.log[1]).toMatch(why);
    });
  }
});
