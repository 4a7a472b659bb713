// Asking when the session ends (issue 32 item 5), inside the real Codex CLI: with the hooks
// `memctx init --agent codex --summarize-with codex` writes, the SessionEnd hook writes the offline
// summary, then a detached worker runs the real `codex exec` (found on the hook's PATH) against the same
// stand-in, which answers the summary request as scripted. A six-field answer replaces the offline
// summary (marked as the agent's); prose leaves it.
import { existsSync, readdirSync, readFileSync, symlinkSync, watch } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { codex, codexVersion, makeWorld, memctx, runCodex, unavailable, type SessionResult, type World } from './harness.js';
import { inputText } from './stand-in.js';
import { parseMemoryText } from '../../../src/kernel/store/parse.js';
import { parseBody } from '../../../src/kernel/summary/render.js';
import { builtInTemplate } from '../../../src/kernel/summary/templates.js';
import { stateOf } from '../../helpers/cli.js';

if (unavailable) console.log(`skipped: ${unavailable}`);

const PROMPT = 'Add rate limiting to the API';
const ANSWER = {
  goal: 'Add rate limiting to the API',
  progress: ['Token bucket middleware in src/limit.js'],
  decisions: ['Token bucket, not a fixed window: bursts stay fair across clients'],
  changed_files: ['src/limit.js'],
  blockers: ['none'],
  next_steps: ['Wire the limiter into the gateway'],
};

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

async function endSession(answer: string): Promise<{ world: World; session: SessionResult; text: string; file: string; log: string[] }> {
  const world = makeWorld();
  expect(memctx(['init', '--agent', 'codex', '--summarize-with', 'codex'], { cwd: world.project }).code).toBe(0);
  symlinkSync(codex.bin!, join(world.root, 'bin/codex'));
  const sessions = join(world.project, '.memory/sessions');
  const state = stateOf(join(world.project, '.memory'));
  const session = await runCodex(world, {
    prompt: PROMPT,
    turns: [
      { items: [{ type: 'function_call', name: 'exec_command', arguments: { cmd: "mkdir -p src && printf 'export const BUCKET = 20;\\n' > src/limit.js" } }] },
      { items: [{ type: 'message', text: 'The token bucket middleware is written.' }] },
    ],
    summary: { items: [{ type: 'message', text: answer }] },
    beforeClose: async () => {
      const [written] = existsSync(sessions) ? readdirSync(sessions) : [];
      const id = written ? /\nsession_id: (\S+)/.exec(readFileSync(join(sessions, written), 'utf8'))?.[1] : undefined;
      if (id) await gone(join(state, `summary-job-${id}.json`));
    },
  });
  const [file, ...more] = readdirSync(sessions);
  expect(more).toEqual([]);
  const log = readFileSync(join(state, 'flush.log'), 'utf8').trim().split('\n').map((line) => line.replace(/^\S+ /, ''));
  return { world, session, file, text: readFileSync(join(sessions, file), 'utf8'), log };
}

describe.skipIf(unavailable)(`the agent asked at SessionEnd, in the background, in Codex ${codexVersion}`, () => {
  const worlds: World[] = [];
  afterAll(() => worlds.forEach((w) => w.cleanup()));

  it("a six-field answer replaces the offline summary; the file says the agent wrote it; codex exec was asked once, without hooks", async () => {
    const ended = await endSession(JSON.stringify(ANSWER));
    worlds.push(ended.world);
    expect(ended.session.code).toBe(0);
    const parsed = parseMemoryText(ended.file, ended.text, { mtimeMs: 0, size: 0 });
    expect(parsed.data).toMatchObject({ written_by: 'agent', written_with: 'codex exec' });
    expect(parseBody(builtInTemplate('session'), parsed.body)).toEqual({
      goal: [ANSWER.goal],
      progress: ANSWER.progress,
      decisions: ANSWER.decisions,
      changedFiles: ['src/limit.js'],
      blockers: ['none'],
      nextSteps: ANSWER.next_steps,
    });
    const asked = ended.session.requests.filter((r) => inputText(r.body).includes('Summarize this coding-agent session, which has just ended'));
    expect(asked).toHaveLength(1);
    expect(inputText(asked[0].body)).toContain(PROMPT);
    expect(ended.log).toHaveLength(2);
    expect(ended.log[0]).toMatch(/^SessionEnd\(\w+\) session=\S+ wrote sessions\/\S+ \(\d+ tokens\); asked codex for the summary in the background \(at most 60 s\)/);
    expect(ended.log[1]).toMatch(/^SessionEnd\(\w+\) session=\S+ summary by codex exec: replaced the offline summary sessions\/\S+ \(prompt \d+ tokens; codex exec reported \d+ input and \d+ output tokens\)$/);
  });

  it('prose leaves the offline summary, and one log line says why', async () => {
    const ended = await endSession('The session added a token bucket limiter. All good!');
    worlds.push(ended.world);
    expect(ended.session.code).toBe(0);
    expect(ended.text).not.toContain('written_by');
    expect(ended.log).toHaveLength(2);
    expect(ended.log[1]).toMatch(/error: summary by codex exec: .+; kept the offline summary sessions\//);
  });
});
