// Hooks that cannot do their job must never fail the session: a read-only memory directory, and a
// transcript that does not exist yet when the hook runs.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeVersion, hookCommand, hookRuns, makeWorld, memctx, runClaude, unavailable, writeSettings, type SessionResult, type World } from './harness.js';
import { stateOf } from '../../helpers/cli.js';

const isRoot = process.getuid?.() === 0;

/** Make a directory tree unwritable (root ignores modes, so it gets the immutable attribute). */
function setReadOnly(dir: string, readOnly: boolean): boolean {
  if (isRoot) return spawnSync('chattr', ['-R', readOnly ? '+i' : '-i', dir]).status === 0;
  for (const entry of [dir, ...readdirSync(dir, { recursive: true }).map((name) => join(dir, String(name)))]) chmodSync(entry, readOnly ? 0o555 : 0o755);
  return true;
}

describe.skipIf(unavailable)(`SessionEnd under a read-only .memory, Claude Code ${claudeVersion}`, () => {
  let world: World;
  let session: SessionResult;
  let locked = false;

  beforeAll(async () => {
    world = makeWorld();
    expect(memctx(['init'], { cwd: world.project }).code).toBe(0);
    writeSettings(world, { hooks: { SessionEnd: [{ hooks: [{ type: 'command', command: hookCommand(world, 'session-end', 'flush --hook'), timeout: 10 }] }] } });
    locked = setReadOnly(join(world.project, '.memory'), true);
    session = await runClaude(world, { prompt: 'Note the plan', turns: [{ content: [{ type: 'text', text: 'TODO: write the plan down.' }] }] });
  });
  afterAll(() => {
    if (world) setReadOnly(join(world.project, '.memory'), false);
    world?.cleanup();
  });

  it('exits 0, says why on stderr, and the session ends normally', (context) => {
    if (!locked) context.skip(isRoot ? 'chattr +i is not supported here, and root ignores file modes' : 'could not make .memory read-only');
    expect(session.code).toBe(0);
    const end = hookRuns(world, 'session-end');
    expect(end.runs.map((r) => r.code)).toEqual([0]);
    // It gives up at once instead of waiting on a lock it can never take.
    expect(end.runs[0].ms).toBeLessThan(5_000);
    // The lock and the log live in the git directory (writable); the session file cannot be written.
    const sessions = `${join(world.project, '.memory', 'sessions')}/`;
    expect(end.stderr.startsWith(`memctx flush --hook: ${sessions}`)).toBe(true);
    expect(end.stderr).toMatch(/^[^\n]*\.md: cannot write the file \(EPERM\) \(check the permissions and free space of the memory directory\)\n$/);
    expect(readFileSync(join(stateOf(join(world.project, '.memory')), 'flush.log'), 'utf8')).toContain('cannot write the file (EPERM)');
    expect(existsSync(join(world.project, '.memory/sessions'))).toBe(false);
  });
});

describe.skipIf(unavailable)(`flush --hook before the transcript exists, Claude Code ${claudeVersion}`, () => {
  let world: World;
  let session: SessionResult;

  beforeAll(async () => {
    world = makeWorld();
    expect(memctx(['init'], { cwd: world.project }).code).toBe(0);
    // Wired to SessionStart by mistake: Claude Code has not written the transcript yet.
    writeSettings(world, { hooks: { SessionStart: [{ hooks: [{ type: 'command', command: hookCommand(world, 'session-start', 'flush --hook'), timeout: 10 }] }] } });
    session = await runClaude(world, { prompt: 'Hello', turns: [{ content: [{ type: 'text', text: 'Hi.' }] }] });
  });
  afterAll(() => world?.cleanup());

  it('exits 0, logs it, and the session goes on', () => {
    expect(session.code).toBe(0);
    expect(session.stdout.trim()).toBe('Hi.');
    const start = hookRuns(world, 'session-start');
    expect(start.runs.map((r) => r.code)).toEqual([0]);
    // No transcript yet is what an empty session looks like too (issue 24): logged as a skip.
    const reason = 'empty session, nothing to record (no transcript was written)';
    expect(start.stderr).toBe(`memctx flush --hook: skipped: ${reason}\n`);
    const sessionId = session.transcript.find((line) => line.sessionId)?.sessionId;
    const log = readFileSync(join(stateOf(join(world.project, '.memory')), 'flush.log'), 'utf8');
    expect(log.replace(/^\S+ /, '')).toBe(`SessionStart session=${sessionId} skipped: ${reason}\n`);
    expect(existsSync(join(world.project, '.memory/sessions'))).toBe(false);
  });
});
