import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { generateCorpus } from './corpus.js';
import { fmtMs, fmtRatio, timeMemctx, timeProcess } from './measure.js';
import type { BenchSection } from './run.js';

/** git in the bench repository, away from the machine's global and system configuration. */
function gitIn(top: string, env: NodeJS.ProcessEnv) {
  return (...args: string[]) => execFileSync('git', args, { cwd: top, env, stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * What the pre-commit hook costs a commit: `memctx index --staged` when the commit touches no memory
 * file (the common case, which must stay near Node's own start-up), and when it does (200 files).
 */
const section: BenchSection = {
  name: 'hooks',
  async run(work) {
    rmSync(work, { recursive: true, force: true });
    const top = join(work, 'repo');
    mkdirSync(top, { recursive: true });
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: work, GIT_CONFIG_NOSYSTEM: '1', GIT_CEILING_DIRECTORIES: dirname(work) };
    for (const key of Object.keys(env)) if (key.startsWith('GIT_DIR') || key === 'GIT_INDEX_FILE' || key === 'GIT_WORK_TREE') delete env[key];
    const git = gitIn(top, env);
    git('init', '-q');
    git('config', 'user.name', 'bench');
    git('config', 'user.email', 'bench@example.com');
    git('config', 'commit.gpgsign', 'false');
    generateCorpus(join(top, '.memory'), 200, { seed: 3 });
    for (let i = 0; i < 500; i++) writeFileSync(join(top, `src-${i}.txt`), `file ${i}\n`);
    timeMemctx(['index'], { cwd: top, runs: 1, env });
    git('add', '-A');
    git('commit', '-q', '-m', 'corpus');

    const node = timeProcess(['-e', ''], { runs: 9 });
    const version = timeMemctx(['--version'], { cwd: top, runs: 9, env });
    appendFileSync(join(top, 'src-1.txt'), 'changed\n');
    git('add', 'src-1.txt');
    const untouched = timeMemctx(['index', '--staged'], { cwd: top, runs: 9, env });
    appendFileSync(join(top, '.memory/note_00001.md'), '\nOne more line.\n');
    git('add', '.memory/note_00001.md');
    const touched = timeMemctx(['index', '--staged'], { cwd: top, runs: 9, env });
    const ratio = untouched.medianMs / node.medianMs;
    const overCli = untouched.medianMs - version.medianMs;
    return [
      { label: 'node start-up (empty script)', value: fmtMs(node.medianMs), data: { ...node } },
      { label: 'index --staged, commit touches no memory file', value: fmtMs(untouched.medianMs), goal: '≤ 250 ms', ok: untouched.medianMs <= 250, data: { ...untouched } },
      { label: 'memctx --version (the CLI start-up alone)', value: fmtMs(version.medianMs), data: { ...version } },
      { label: 'index --staged (no memory file) / node start-up', value: fmtRatio(ratio), data: { ratio } },
      { label: 'index --staged (no memory file) over CLI start-up (git queries)', value: fmtMs(overCli), data: { overCli } },
      { label: 'index --staged, memory file staged (200 files: rebuild + git add)', value: fmtMs(touched.medianMs), data: { ...touched } },
    ];
  },
};

export default section;
