// SessionStart and SessionEnd hooks wired with the README's recipe, inside the real Claude Code.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeVersion, hookCommand, hookRuns, makeWorld, memctx, runClaude, section, unavailable, writeSettings, type SessionResult, type World } from './harness.js';
import { requestText } from './stand-in.js';
import { recordFigure } from './figures.js';

const PROMPT = 'Write a backfill script for the users table';
const FINAL = [
  'The backfill script is in place. DECISION: batch the backfill in chunks of 500 rows because one transaction would lock the users table.',
  'TODO: run the backfill against staging before production.',
].join('\n');

describe.skipIf(unavailable)(`hooks in Claude Code ${claudeVersion}`, () => {
  let world: World;
  let session: SessionResult;
  let bundle: { bundle: string; tokens: number; budget: number };

  beforeAll(async () => {
    world = makeWorld();
    expect(memctx(['init'], { cwd: world.project }).code).toBe(0);
    expect(
      memctx(['add', 'decision_locks', '--name', 'Table locks', '--description', 'Long transactions lock the users table', '--type', 'project', '--kind', 'decision', '--importance', '8', '--body', 'Keep write transactions under a second on users.'], { cwd: world.project }).code,
    ).toBe(0);
    bundle = JSON.parse(memctx(['--json', 'pack', '--profile', 'rehydrate'], { cwd: world.project }).stdout);
    writeSettings(world, {
      hooks: {
        SessionStart: [{ hooks: [{ type: 'command', command: hookCommand(world, 'session-start', 'pack --profile rehydrate --quiet') }] }],
        SessionEnd: [{ hooks: [{ type: 'command', command: hookCommand(world, 'session-end', 'flush --hook'), timeout: 10 }] }],
      },
    });
    session = await runClaude(world, {
      prompt: PROMPT,
      allowedTools: ['Write', 'Edit'],
      turns: [
        { content: [{ type: 'text', text: 'Writing the script.' }, { type: 'tool_use', name: 'Write', input: { file_path: join(world.project, 'scripts/backfill.js'), content: '// Backfills users.created_at in chunks of 500 rows.\nexport async function backfill(db) {}\n' } }] },
        { content: [{ type: 'tool_use', name: 'Write', input: { file_path: join(world.project, 'src/db.js'), content: 'export const CHUNK = 500;\n' } }] },
        { content: [{ type: 'text', text: FINAL }] },
      ],
    });
  });
  afterAll(() => world?.cleanup());

  it('runs the scripted session', () => {
    expect(session.stderr).toBe('');
    expect(session.code).toBe(0);
    expect(session.stdout.trim()).toBe(FINAL);
    expect(session.agentRequests.map((r) => r.turn)).toEqual([0, 1, 2]);
    expect(readFileSync(join(world.project, 'scripts/backfill.js'), 'utf8')).toContain('in chunks of 500 rows');
  });

  it('SessionStart: the rehydrate pack reaches the model, within its budget', () => {
    const start = hookRuns(world, 'session-start');
    expect(start.runs.map((r) => r.code)).toEqual([0]);
    expect(start.stdout.trimEnd()).toBe(bundle.bundle.trimEnd());
    expect(bundle.budget).toBe(25_000);
    expect(bundle.tokens).toBeLessThanOrEqual(bundle.budget);
    expect(bundle.bundle).toContain('Keep write transactions under a second on users.');
    // Every request of the agent loop carries the bundle (Claude Code adds it to the context).
    for (const request of session.agentRequests) expect(requestText(request.body)).toContain('Keep write transactions under a second on users.');
    expect(requestText(session.agentRequests[0].body)).toContain(bundle.bundle.trimEnd().split('\n').slice(-4).join('\n'));
  });

  it('SessionEnd: flush --hook writes the session file', () => {
    const end = hookRuns(world, 'session-end');
    expect(end.runs.map((r) => r.code)).toEqual([0]);
    recordFigure('flush --hook inside a real SessionEnd, wall (ms)', end.runs[0].ms);
    if (end.runs[0].cpuMs !== undefined) recordFigure('flush --hook inside a real SessionEnd, CPU user+sys (ms)', end.runs[0].cpuMs);
    // What starting Node alone costs on this machine right now, to read the figure above against.
    const started = Date.now();
    spawnSync(process.execPath, ['-e', '0']);
    recordFigure('node -e 0 at the same time (ms)', Date.now() - started);
    const sessions = readdirSync(join(world.project, '.memory/sessions'));
    expect(sessions).toHaveLength(1);
    const text = readFileSync(join(world.project, '.memory/sessions', sessions[0]), 'utf8');
    const sessionId = session.transcript.find((line) => line.sessionId)?.sessionId;
    expect(text).toContain(`session_id: ${sessionId}\n`);
    expect(text).toContain(`description: ${PROMPT}\n`);
    expect(section(text, 'Goal')).toBe(PROMPT);
    // A file the scripted model wrote within the session's first second may miss git's (new) mark: the list is what counts.
    expect(section(text, 'Changed Files').replaceAll(' (new)', '')).toBe('- scripts/backfill.js — Backfills users.created_at in chunks of 500 rows (backfill)\n- src/db.js');
    expect(section(text, 'Next Steps')).toBe('- run the backfill against staging before production.');
    expect(section(text, 'Blockers')).toBe('none recorded');
    expect(readFileSync(join(world.project, '.memory/MEMORY.md'), 'utf8')).toContain(`(sessions/${sessions[0]})`);
  });

  it('SessionEnd: the inline DECISION: in the final message is recorded', () => {
    const sessions = readdirSync(join(world.project, '.memory/sessions'));
    const text = readFileSync(join(world.project, '.memory/sessions', sessions[0]), 'utf8');
    expect(section(text, 'Decisions')).toBe('- batch the backfill in chunks of 500 rows because one transaction would lock the users table.');
  });
});

// Claude Code 2.1.330 keeps a hook's output over 10,000 characters out of the context: the model gets
// "Output too large", a file path and a 2 KB preview. Found here; pinned so a new version shows up.
describe.skipIf(unavailable)(`SessionStart output size in Claude Code ${claudeVersion}`, () => {
  let world: World;
  let full: SessionResult;
  let budgeted: SessionResult;

  beforeAll(async () => {
    world = makeWorld();
    expect(memctx(['init'], { cwd: world.project }).code).toBe(0);
    for (let i = 0; i < 12; i++) {
      const body = Array.from({ length: 60 }, (_, j) => `Step ${j} of decision ${i}: the queue worker stays idempotent and retries with backoff.`).join('\n');
      const added = memctx(['add', `decision_${i}`, '--name', `Decision ${i}`, '--description', `Queue decision ${i}`, '--type', 'project', '--kind', 'decision', '--importance', '9', '--body', body, '--force'], { cwd: world.project }); // near-duplicates on purpose
      expect(added.code).toBe(0);
    }
    const session = () => runClaude(world, { prompt: 'hi', turns: [{ content: [{ type: 'text', text: 'ok' }] }] });
    writeSettings(world, { hooks: { SessionStart: [{ hooks: [{ type: 'command', command: hookCommand(world, 'full', 'pack --profile rehydrate --quiet') }] }] } });
    full = await session();
    writeSettings(world, { hooks: { SessionStart: [{ hooks: [{ type: 'command', command: hookCommand(world, 'budgeted', 'pack --profile rehydrate --budget 2000 --quiet') }] }] } });
    budgeted = await session();
  });
  afterAll(() => world?.cleanup());

  it('the README recipe (25,000-token budget) packs more than 10,000 characters, and the model sees a 2 KB preview', () => {
    const out = hookRuns(world, 'full').stdout;
    expect(out.length).toBeGreaterThan(10_000);
    const shown = requestText(full.agentRequests[0].body);
    expect(shown).toContain('SessionStart:startup hook success: <persisted-output>\nOutput too large (');
    expect(shown).toContain('Preview (first 2KB):\n# Memory bundle\n');
    expect(shown).not.toContain(out.trimEnd().split('\n').at(-2));
  });

  it('with --budget 2000 the bundle stays under 10,000 characters and reaches the model in full', () => {
    const out = hookRuns(world, 'budgeted').stdout;
    expect(out.length).toBeLessThan(10_000);
    const shown = requestText(budgeted.agentRequests[0].body);
    expect(shown).not.toContain('<persisted-output>');
    expect(shown).toContain(out.trimEnd());
  });
});
