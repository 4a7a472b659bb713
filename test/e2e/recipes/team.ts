/**
 * The recipes a team meets after installing memctx as a devDependency (issue 34), run as a user runs
 * them, in a fresh repository beside the installed project: init for Claude Code and Codex (no warning,
 * the personal settings ignored, hook timeouts Codex accepts), a real two-branch merge through the
 * MEMORY.md merge driver with no memctx on PATH, shell completion, the README's PostToolUse command.
 * Each step is a shell line with the exit it must give and, unless noted, an empty stderr.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

interface Step {
  name: string;
  command: string;
  exit?: number;
  /** stderr may hold git's own chatter (checkout, merge). */
  stderrAllowed?: boolean;
}

const bin = 'node_modules/.bin/memctx';
const add = (name: string) => `${bin} add ${name} --name ${name} --description "added on ${name}" --type project --body "Made on ${name}."`;

const STEPS: Step[] = [
  { name: 'init --agent claude', command: `${bin} init --agent claude > out.txt && grep -q 'kept out of git' out.txt` },
  { name: '.claude/settings.local.json is ignored', command: 'git check-ignore -q .claude/settings.local.json' },
  { name: 'init --agent codex', command: `${bin} init --agent codex` },
  { name: "Codex's SessionEnd timeout is 3 s", command: `node -e 'const h = require("./.codex/hooks.json").hooks; process.exit(h.SessionEnd[0].hooks[0].timeout === 3 ? 0 : 1)'` },
  { name: 'the merge driver starts the project\'s memctx', command: 'git config --get merge.memctx.driver | grep -q "exec node_modules/.bin/memctx merge-index"' },
  { name: 'commit the set-up', command: 'rm out.txt && git add -A && git commit -qm set-up' },
  { name: 'branch one adds a memory', command: `git checkout -qb one && ${add('one')} && git add -A && git commit -qm one`, stderrAllowed: true },
  { name: 'branch two adds a memory', command: `git checkout -q main && git checkout -qb two && ${add('two')} && git add -A && git commit -qm two`, stderrAllowed: true },
  { name: 'git merge, memctx not on PATH: clean', command: 'git merge -q --no-edit one 2>err.txt; rc=$?; cat err.txt >&2; rm err.txt; [ $rc -eq 0 ] && [ -z "$(git status --porcelain)" ] && grep -q "(one.md)" .memory/MEMORY.md && grep -q "(two.md)" .memory/MEMORY.md' },
  { name: 'completion bash', command: `eval "$(${bin} completion bash)" && complete -p memctx >/dev/null` },
  { name: "the README's PostToolUse command", command: 'printf \'{"session_id":"s","transcript_path":"%s/t.jsonl"}\' "$PWD" > in.json && printf \'{"type":"user","message":{"role":"user","content":"hi"}}\\n\' > t.jsonl && CLAUDE_PROJECT_DIR="$PWD" sh -c \'"$CLAUDE_PROJECT_DIR"/node_modules/.bin/memctx checkpoint\' < in.json 2>/dev/null' },
];

/** Run the steps in `<base>/team`, with `nodeModules` (a project's, memctx installed in it) linked in; the failures, one line each. */
export function runTeamRecipes(base: string, nodeModules: string): { steps: number; failures: string[] } {
  const team = join(base, 'team');
  mkdirSync(team);
  symlinkSync(nodeModules, join(team, 'node_modules'));
  writeFileSync(join(team, '.gitignore'), 'node_modules\n');
  const PATH = (process.env.PATH ?? '').split(':').filter((dir) => !dir.includes('node_modules')).join(':');
  const env = { PATH, HOME: base, GIT_CONFIG_NOSYSTEM: '1', GIT_CEILING_DIRECTORIES: base, NO_COLOR: '1', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' };
  const failures: string[] = [];
  spawnSync('git', ['init', '-q', '-b', 'main'], { cwd: team, env });
  spawnSync('git', ['commit', '-q', '--allow-empty', '-m', 'start'], { cwd: team, env });
  for (const step of STEPS) {
    const run = spawnSync('bash', ['-c', step.command], { cwd: team, env, encoding: 'utf8', timeout: 60_000 });
    if (run.status !== (step.exit ?? 0)) failures.push(`${step.name}: exit ${run.status}, expected ${step.exit ?? 0}: ${run.stderr.trim()}`);
    else if (!step.stderrAllowed && run.stderr !== '') failures.push(`${step.name}: stderr ${JSON.stringify(run.stderr)}`);
  }
  return { steps: STEPS.length, failures };
}
