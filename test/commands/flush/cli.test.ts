// flush/cli.ts: what `memctx flush` prints: the file on --dry-run, the record with --json, and the error
// when there is no memory directory (flush.test.ts holds what it writes).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../helpers/cli.js';
import { runCli } from '../../helpers/run.js';
import { initProject, readMemoryIn, sessionsIn } from '../../helpers/agent-project.js';
import { tiktoken } from '../../helpers/tiktoken.js';

let project: string;
let mem: string;

beforeEach(async () => {
  ({ project, mem } = await initProject('memctx-flush-'));
});

afterEach(() => removeDir(project));

/** The files of one folder of the memory (sessions/ unless told), as memory paths. */
const sessions = (dir = 'sessions') => sessionsIn(mem, dir).map((f) => `${dir}/${f}`);
const readMemory = (rel: string) => readMemoryIn(mem, rel);

const tokensOf = (text: string) => tiktoken.o200k_base.encode(text, [], []).length;

describe('memctx flush from options', () => {
  it('--dry-run prints the file and writes nothing; --json prints the record', async () => {
    const dry = await runCli(['flush', '--goal', 'Try', '--progress', 'p', '--decision', 'd', '--changed', 'c', '--blocker', 'b', '--next', 'n', '--dry-run'], { cwd: project });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/^---\n[\s\S]*\n---\n\n## Goal\n\nTry\n/);
    expect(dry.stderr).toMatch(new RegExp(`^memctx: dry run: would write sessions/\\d{4}-\\d{2}-\\d{2}T\\d{6}-try\\.md \\(${tokensOf(dry.stdout)} tokens\\)\\n$`));
    expect(sessions()).toEqual([]);
    const json = await runCli(['--json', 'flush', '--goal', 'Try', '--next', 'n'], { cwd: project });
    expect(json.code).toBe(0);
    const record = JSON.parse(json.stdout);
    const [path] = sessions();
    expect(record).toMatchObject({ path, written: true, replaced: false, template: 'session', target: 500, max: 650, shortened: false, cuts: [], empty: ['Progress', 'Decisions', 'Changed Files', 'Blockers'] });
    expect(record.tokens).toBe(tokensOf(readMemory(path).text));
    expect(record.fields).toEqual({ goal: ['Try'], progress: [], decisions: [], changedFiles: [], blockers: [], nextSteps: ['n'] });
  });
});

describe('memory directory', () => {
  it('one that does not exist: exit 2 suggesting memctx init', async () => {
    const bare = tempDir('memctx-flush-bare-');
    try {
      const r = await runCli(['flush', '--goal', 'x'], { cwd: bare });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('hint: run `memctx init` to create one, or pass --dir PATH');
      const dir = await runCli(['--dir', 'nope', 'flush', '--goal', 'x'], { cwd: bare });
      expect(dir.code).toBe(2);
      expect(dir.stderr).toContain('run `memctx --dir nope init`');
    } finally {
      removeDir(bare);
    }
  });
});
