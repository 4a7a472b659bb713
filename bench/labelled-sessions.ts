/**
 * Labelled sessions for the bad inputs of issue 32, built as Claude Code transcripts (JSONL) with the
 * facts a summary of each must state, written before the extractor was tuned to them: a session that
 * ends mid-turn, one that ends with the agent's question, one whose every command failed, one with
 * subagent sidechains only, one that changed 1,000 files, and one with the failures a summary must
 * not report (a retried step, a shell loop, a probe, a traceback worked around) ending on an
 * unanswered request. Built in code: no data file, nothing from other repositories.
 */
import type { Expected } from './flush-quality.bench.js';

const CWD = '/home/dev/app';

class Session {
  private lines: string[] = [];
  private n = 0;
  private tool = 0;
  constructor(private readonly sidechain = false) {}

  private push(type: 'user' | 'assistant', content: unknown): void {
    const line: Record<string, unknown> = {
      parentUuid: null,
      isSidechain: this.sidechain,
      userType: 'external',
      cwd: CWD,
      sessionId: '00000000-0000-4000-8000-000000000032',
      version: '2.1.40',
      uuid: `u${++this.n}`,
      timestamp: new Date(Date.UTC(2026, 10, 20, 10, 0, this.n)).toISOString(),
      type,
      message: type === 'user' ? { role: 'user', content } : { id: `m${this.n}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content },
    };
    this.lines.push(JSON.stringify(line));
  }

  user(text: string): this {
    this.push('user', text);
    return this;
  }

  say(text: string): this {
    this.push('assistant', [{ type: 'text', text }]);
    return this;
  }

  /** A tool call and, unless `result` is undefined, its result. */
  call(name: string, input: Record<string, unknown>, result?: string, isError = false): this {
    const id = `toolu_${++this.tool}`;
    this.push('assistant', [{ type: 'tool_use', id, name, input }]);
    if (result !== undefined) this.push('user', [{ type: 'tool_result', tool_use_id: id, content: result, is_error: isError }]);
    return this;
  }

  bash(command: string, output: string, failed = false): this {
    return this.call('Bash', { command }, failed ? `Exit code 1\n${output}` : output, failed);
  }

  edit(path: string): this {
    return this.call('Edit', { file_path: `${CWD}/${path}`, old_string: 'a', new_string: 'b' }, `The file ${CWD}/${path} has been updated.`);
  }

  text(): string {
    return `${this.lines.join('\n')}\n`;
  }
}

const none: Pick<Expected, 'stale' | 'noise' | 'notFiles'> = { stale: [], noise: [], notFiles: [] };

function midTurn(): [string, Expected] {
  const s = new Session()
    .user('The login page crashes on an empty password. Can you fix the validation in src/auth/login.ts?')
    .say("I'm pulling the lower half of that file and the CLI tests so I can see the handler.")
    .edit('src/auth/login.ts')
    .bash('npm test', ' Test Files  12 passed (12)\n      Tests  88 passed (88)')
    .say('I reject an empty password before hashing, because bcrypt accepts an empty string and the old check ran after it.')
    .bash('git commit -am "login: reject an empty password before hashing"', '[main 1a2b3c4] login: reject an empty password before hashing\n 1 file changed, 4 insertions(+)')
    .say('Fixed and committed 1a2b3c4.')
    .user('Now add rate limiting to the login endpoint.')
    .say('Let me look at the middleware first.')
    .call('Read', { file_path: `${CWD}/src/server.ts` }, 'export const app = express();')
    .call('Write', { file_path: `${CWD}/src/middleware/rate-limit.ts`, content: 'export {}' }, 'File created successfully')
    .call('Edit', { file_path: `${CWD}/src/server.ts`, old_string: 'a', new_string: 'b' });
  return [
    s.text(),
    {
      ...none,
      goal: ['rate limit'],
      progress: ['Committed|commit', 'empty password'],
      nextSteps: ['rate limit'],
      decisions: ['empty password before hashing.*because'],
      blockers: [],
      files: ['src/auth/login.ts', 'src/middleware/rate-limit.ts'],
      notDecisions: ["I'm pulling", 'Let me'],
    },
  ];
}

function endsWithQuestion(): [string, Expected] {
  const s = new Session()
    .user('Our config loader only reads JSON. Refactor it to read YAML as well as JSON.')
    .call('TodoWrite', { todos: [{ content: 'Add YAML parsing to the loader', status: 'in_progress', activeForm: 'Adding YAML parsing' }, { content: 'Run the tests', status: 'pending', activeForm: 'Running the tests' }] }, 'Todos updated')
    .edit('src/config/load.ts')
    .edit('test/config.test.ts')
    .bash('npm test', ' FAIL  test/config.test.ts > loads yaml\n × loads yaml 3ms\nTests  1 failed | 40 passed', true)
    .edit('src/config/load.ts')
    .call('TodoWrite', { todos: [{ content: 'Add YAML parsing to the loader', status: 'completed', activeForm: 'Adding YAML parsing' }, { content: 'Run the tests', status: 'in_progress', activeForm: 'Running the tests' }] }, 'Todos updated')
    .bash('npm test', ' Test Files  9 passed (9)\n      Tests  41 passed (41)')
    .bash('git add -A && git commit -m "config: load YAML as well as JSON"', '[yaml-config 9f8e7d6] config: load YAML as well as JSON\n 2 files changed')
    .bash('git push -u origin yaml-config', 'To github.com:dev/app.git\n * [new branch]      yaml-config -> yaml-config')
    .say('YAML and JSON configs both load now and the branch is pushed. I kept JSON first in the lookup order so that existing projects keep their behaviour. Should I also document the YAML format in the README?');
  return [
    s.text(),
    {
      ...none,
      goal: ['YAML'],
      progress: ['Committed|commit', 'Pushed|push'],
      nextSteps: ['README'],
      stale: ['Run the tests', 'Add YAML parsing'],
      decisions: ['JSON first.*(?:so that|because)'],
      blockers: [],
      files: ['src/config/load.ts', 'test/config.test.ts'],
    },
  ];
}

function everyCommandFailed(): [string, Expected] {
  const s = new Session()
    .user('Set up the Python environment and run the test suite.')
    .bash('python -m venv .venv', 'bash: python: command not found', true)
    .bash('python3 -m venv .venv', 'The virtual environment was not created successfully because ensurepip is not available.', true)
    .bash('pip install -r requirements.txt', 'error: externally-managed-environment', true)
    .bash('pytest -q', 'bash: pytest: command not found', true)
    .say('I could not set up the environment: python3-venv is missing and pip refuses to install into the system Python. Install python3-venv (sudo apt install python3-venv), then I can create the virtual environment and run the tests.');
  return [
    s.text(),
    {
      ...none,
      goal: ['Python environment|test suite'],
      progress: [],
      nextSteps: ['python3-venv'],
      decisions: [],
      blockers: ['venv|ensurepip', 'pytest|pip|externally'],
      files: [],
    },
  ];
}

function sidechainsOnly(): [string, Expected] {
  const s = new Session(true)
    .user('Update the Go handlers in internal/api to return JSON errors.')
    .edit('internal/api/handlers.go')
    .call('Write', { file_path: `${CWD}/internal/api/errors.go`, content: 'package api' }, 'File created successfully')
    .bash('go test ./internal/api/...', 'ok  \tgithub.com/dev/app/internal/api\t0.412s')
    .say('The handlers now return JSON errors through writeError, because the clients parse the response body.');
  return [
    s.text(),
    { ...none, goal: ['JSON errors'], progress: ['JSON errors'], nextSteps: [], decisions: ['writeError.*because'], blockers: [], files: ['internal/api/handlers.go', 'internal/api/errors.go'] },
  ];
}

/** Paths of the 1,000-file session: 25 folders of 40 files. */
export function thousandPaths(): string[] {
  const out: string[] = [];
  for (let d = 0; d < 25; d++) for (let f = 0; f < 40; f++) out.push(`pkg/mod${String(d).padStart(2, '0')}/file${String(f).padStart(2, '0')}.go`);
  return out;
}

function thousandFiles(): [string, Expected] {
  const s = new Session().user('Rename the import path oldpkg to newpkg across the repository.');
  for (const path of thousandPaths()) s.edit(path);
  s.bash('go build ./...', '')
    .bash('git commit -am "rename oldpkg to newpkg"', '[main 5d4c3b2] rename oldpkg to newpkg\n 1000 files changed')
    .say('Renamed oldpkg to newpkg in 1,000 files; the build passes and the change is committed.');
  return [s.text(), { ...none, goal: ['newpkg'], progress: ['Committed|commit'], nextSteps: [], decisions: [], blockers: [], files: thousandPaths() }];
}

function settledFailures(): [string, Expected] {
  const s = new Session()
    .user('Review this trail of the export feature and list the problems you find.')
    .call('Read', { file_path: `${CWD}/src/export/path.ts` }, 'export function join() {}')
    .say('Three problems: paths are not escaped, the base ref is interpolated into a shell string, and the old module is still imported.')
    .user('Open a new trail for the fixes and fix the findings you listed.')
    .call('TodoWrite', { todos: [{ content: 'Fix path escaping in the exporter', status: 'in_progress', activeForm: 'Fixing path escaping' }, { content: 'Pass the base ref as an argument', status: 'pending', activeForm: 'Passing the base ref' }] }, 'Todos updated')
    .bash('git -C ~/.claude rev-parse --show-toplevel', 'fatal: not a git repository (or any of the parent directories): .git', true)
    .bash('for f in src/export/*.ts; do grep -n TODO "$f"; done', '', true)
    .bash('test -f src/export/legacy.ts', '', true)
    .bash('python3 scripts/check_links.py', 'Traceback (most recent call last):\n  File "scripts/check_links.py", line 3, in <module>\n    import yaml\nModuleNotFoundError: No module named \'yaml\'', true)
    .bash('node scripts/check-links.mjs', 'all links resolve')
    .edit('src/export/path.ts')
    .bash("sed -i 's/oldExport/legacyExport/' src/export/index.ts", '')
    .bash('git mv src/export/old.ts src/export/legacy.ts', '')
    .call('Write', { file_path: '/tmp/cand.txt', content: 'scratch' }, 'File created successfully')
    .bash('npm test', 'Tests  1 failed | 52 passed\n × escapes spaces 2ms', true)
    .edit('src/export/path.ts')
    .bash('npm test', ' Test Files  10 passed (10)\n      Tests  53 passed (53)')
    .bash('git add -A && git commit -m "export: escape paths; pass the base ref as an argument"', '[trail-2 4e5f6a7] export: escape paths; pass the base ref as an argument\n 3 files changed')
    .bash('git push origin trail-2', 'To github.com:dev/app.git\n   1111111..4e5f6a7  trail-2 -> trail-2')
    .say('All three findings are fixed and pushed to trail-2.\n\n- Paths are escaped with path.posix.normalize before they are joined.\n- I pass the base ref to git as an argument instead of building a shell string, because a crafted ref could otherwise run commands.\n- The old module moved to src/export/legacy.ts so that existing imports keep working.')
    .user('Can we submit a PR?');
  return [
    s.text(),
    {
      goal: ['fix the findings|new trail'],
      progress: ['Committed|commit', 'Pushed|push', 'path escaping|escape'],
      nextSteps: ['PR|pull request'],
      stale: ['Fix path escaping'],
      noise: [],
      decisions: ['base ref.*argument.*because', 'legacy.*so that'],
      blockers: [],
      files: ['src/export/path.ts', 'src/export/index.ts', 'src/export/legacy.ts'],
      notFiles: ['^/tmp/', '^done$'],
    },
  ];
}

/** The labelled sessions by file name: the transcript's text and its expected facts. */
export function labelledSessions(): Record<string, [string, Expected]> {
  return {
    'mid-turn.jsonl': midTurn(),
    'ends-with-question.jsonl': endsWithQuestion(),
    'every-command-failed.jsonl': everyCommandFailed(),
    'sidechains-only.jsonl': sidechainsOnly(),
    'thousand-files.jsonl': thousandFiles(),
    'settled-failures.jsonl': settledFailures(),
  };
}
