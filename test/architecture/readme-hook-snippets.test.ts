/**
 * The README's opt-in PostToolUse snippet (issue 34, item 4) starts memctx the way init's hooks do:
 * the project's node_modules/.bin/memctx (about 0.2 s a call), not `npx memctx` (about 1 s).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, tempDir } from '../helpers/cli.js';
import { runMemctx } from '../helpers/run.js';

/** README.md and every page of docs/: where the reference moved. */
const README = ['README.md', ...readdirSync(join(REPO, 'docs'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.md')).map((f) => join('docs', f))]
  .map((f) => readFileSync(join(REPO, f), 'utf8'))
  .join('\n');

function postToolUseCommand(): string {
  const line = README.split('\n').find((l) => l.startsWith('{ "hooks": { "PostToolUse"'));
  expect(line).toBeDefined();
  const parsed = JSON.parse(line!) as { hooks: { PostToolUse: Array<{ hooks: Array<{ command: string }> }> } };
  return parsed.hooks.PostToolUse[0].hooks[0].command;
}

describe("the README's PostToolUse snippet", () => {
  it('is the command init writes for a devDependency, with checkpoint', async () => {
    const project = tempDir();
    mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
    symlinkSync(REPO, join(project, 'node_modules', 'memctx'));
    symlinkSync('../memctx/bin/memctx.js', join(project, 'node_modules', '.bin', 'memctx'));
    expect((await runMemctx(['init', '--agent', 'claude'], { cwd: project, env: { PATH: '/usr/bin:/bin' } })).code).toBe(0);
    const stop = JSON.parse(readFileSync(join(project, '.claude/settings.json'), 'utf8')).hooks.Stop[0].hooks[0].command as string;
    expect(stop).toBe('"$CLAUDE_PROJECT_DIR"/node_modules/.bin/memctx checkpoint');
    expect(postToolUseCommand()).toBe(stop);

    // Run as Claude Code runs it: sh in the project, CLAUDE_PROJECT_DIR set, the hook input on stdin.
    writeFileSync(join(project, 't.jsonl'), '{"type":"user","message":{"role":"user","content":"hi"}}\n');
    const input = JSON.stringify({ session_id: 's', transcript_path: join(project, 't.jsonl'), hook_event_name: 'PostToolUse' });
    const run = spawnSync('sh', ['-c', postToolUseCommand()], { cwd: project, input, encoding: 'utf8', env: { PATH: `${process.env.PATH}`, CLAUDE_PROJECT_DIR: project, HOME: project } });
    expect(run.stderr).not.toMatch(/not found/);
    expect(run.status).toBe(0);
  });
});
