// --claude: memctx finds the auto-memory directory this Claude Code version uses, and works on what it wrote.
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeVersion, makeWorld, memctx, projectKey, runClaude, unavailable, type SessionResult, type World } from './harness.js';

const MEMORY_FILE = [
  '---',
  'name: deploy-freeze',
  'description: No production deploys on Fridays',
  'metadata:',
  '  type: project',
  '---',
  '',
  'Production deploys stop at Friday noon. See [[release-calendar]].',
  '**Why:** weekend incidents had no one on call.',
  '',
].join('\n');
const CLAUDE_INDEX = '- [Deploy freeze](deploy-freeze.md) — No production deploys on Fridays\n';

/** The directory Claude Code's system prompt names as the persistent memory. */
function memoryDirShown(body: any): string {
  const system = (body.system ?? []).map((block: any) => block.text ?? '').join('\n');
  const match = /persistent file-based memory at `([^`]+)`/.exec(system);
  if (!match) throw new Error('the system prompt names no memory directory');
  return match[1].replace(/\/$/, '');
}

describe.skipIf(unavailable)(`--claude with Claude Code ${claudeVersion}`, () => {
  let world: World;
  let session: SessionResult;
  let shown = '';
  let cwd = '';

  beforeAll(async () => {
    world = makeWorld();
    // A subdirectory of a git repository: both tools must key the directory on the repository root.
    cwd = join(world.project, 'packages/api');
    mkdirSync(cwd, { recursive: true });
    session = await runClaude(world, {
      prompt: 'Remember that we never deploy on Fridays',
      cwd,
      allowedTools: ['Write'],
      turns: [
        (body) => {
          shown = memoryDirShown(body);
          return { content: [{ type: 'tool_use', name: 'Write', input: { file_path: join(shown, 'deploy-freeze.md'), content: MEMORY_FILE } }] };
        },
        () => ({ content: [{ type: 'tool_use', name: 'Write', input: { file_path: join(shown, 'MEMORY.md'), content: CLAUDE_INDEX } }] }),
        { content: [{ type: 'text', text: 'Saved to memory.' }] },
      ],
    });
  });
  afterAll(() => world?.cleanup());

  it('Claude Code keys its memory on the repository root and writes there', () => {
    expect(session.code).toBe(0);
    expect(shown).toBe(join(world.home, '.claude/projects', projectKey(world.project), 'memory'));
    expect(readdirSync(shown).sort()).toEqual(['MEMORY.md', 'deploy-freeze.md']);
  });

  it('memctx --claude resolves the same directory from the subdirectory', () => {
    const result = memctx(['--claude', '--json', 'ls'], { cwd, env: { HOME: world.home } });
    expect(result.code).toBe(0);
    const files = JSON.parse(result.stdout);
    const list = Array.isArray(files) ? files : files.files;
    expect(list.map((f: any) => [f.path, f.type, f.name])).toEqual([['deploy-freeze.md', 'project', 'deploy-freeze']]);
  });

  it('memctx --claude index keeps the MEMORY.md line Claude Code wrote and does not list its file twice', () => {
    const result = memctx(['--claude', 'index'], { cwd, env: { HOME: world.home } });
    expect(result.code).toBe(0);
    const text = readFileSync(join(shown, 'MEMORY.md'), 'utf8');
    // Claude Code's own pointer line is kept byte for byte, and the file it lists is not listed again below it.
    expect(text).toBe(`${CLAUDE_INDEX}\n<!-- memctx:begin -->\n<!-- memctx:end -->\n`);
    expect(existsSync(join(world.project, '.memory'))).toBe(false);
    expect(memctx(['--claude', 'index', '--check'], { cwd, env: { HOME: world.home } }).code).toBe(0);
  });
});

// A project path longer than 200 characters: Claude Code shortens its key; memctx must follow.
describe.skipIf(unavailable)(`--claude with a long project path, Claude Code ${claudeVersion}`, () => {
  let world: World;
  let shown = '';

  beforeAll(async () => {
    world = makeWorld({ project: `${'very-long-directory-name-'.repeat(9)}end` });
    await runClaude(world, {
      prompt: 'Remember that we never deploy on Fridays',
      allowedTools: ['Write'],
      turns: [
        (body) => {
          shown = memoryDirShown(body);
          return { content: [{ type: 'tool_use', name: 'Write', input: { file_path: join(shown, 'deploy-freeze.md'), content: MEMORY_FILE } }] };
        },
        { content: [{ type: 'text', text: 'Saved to memory.' }] },
      ],
    });
  });
  afterAll(() => world?.cleanup());

  it('memctx --claude index writes into the directory Claude Code uses', () => {
    expect(projectKey(world.project).length).toBeGreaterThan(200);
    expect(shown.startsWith(join(world.home, '.claude/projects') + '/')).toBe(true);
    expect(memctx(['--claude', 'index'], { cwd: world.project, env: { HOME: world.home } }).code).toBe(0);
    expect(readdirSync(shown).sort()).toEqual(['MEMORY.md', 'deploy-freeze.md']);
    expect(readFileSync(join(shown, 'MEMORY.md'), 'utf8')).toContain('- [deploy-freeze](deploy-freeze.md) — No production deploys on Fridays\n');
    expect(readdirSync(join(world.home, '.claude/projects'))).toEqual([basename(dirname(shown))]);
  });
});
