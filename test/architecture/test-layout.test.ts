// Tests mirror src/ (ARCHITECTURE.md, "Tests"): every action in src/actions/ and every MCP tool in
// src/mcp/tools/ has its own test file or folder, and the per-action and per-tool folders hold no file
// named after a module that does not exist.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.js';

const modules = (dir: string) => readdirSync(join(REPO, dir)).filter((name) => name.endsWith('.ts')).map((name) => name.slice(0, -'.ts'.length));

/** Actions whose tests live in the folder of their area rather than in test/actions/<action>.test.ts. */
const AREA: Record<string, string> = {
  'agent-summary': 'test/flush/agent-summary.test.ts',
  checkpoint: 'test/flush/checkpoint.test.ts',
  compact: 'test/status/compact-cli.test.ts',
  flush: 'test/flush/',
  hook: 'test/hooks/install.test.ts',
  'index-staged': 'test/hooks/hook.test.ts',
  init: 'test/init/',
  lint: 'test/lint/',
  'memory-tool': 'test/mcp/tools/memory.test.ts',
  'merge-index': 'test/hooks/merge-driver.test.ts',
  pack: 'test/pack/',
  search: 'test/search/',
  status: 'test/status/',
  summarize: 'test/flush/summarize-hook.test.ts',
};

/** Modules of src/actions/ that are no command of their own, each with where it is tested. */
const NOT_ACTIONS: Record<string, string> = {
  options: 'option strings the schemas do not cover, parsed for several actions; tested through their commands',
  'memory-errors': "the memory tool's refusals in /memories terms; tested in test/mcp/tools/memory.test.ts",
  reindex: 'the lock → check → change → re-index path of every writer; tested through add, edit, rm, mv and gc',
  'pack-scan': 'the cached scan pack and search share; tested through test/pack/ and test/search/',
};

/** Where an action's tests are: its own file or folder under test/actions/, else its area's. */
function testHome(action: string): string | undefined {
  const own = [`test/actions/${action}.test.ts`, `test/actions/${action}/`];
  return [...own, AREA[action]].find((path) => path !== undefined && existsSync(join(REPO, path)));
}

describe('tests mirror src/', () => {
  it('every action in src/actions/ has a test file or folder', () => {
    const actions = modules('src/actions').filter((name) => !(name in NOT_ACTIONS));
    expect(actions.filter((action) => testHome(action) === undefined)).toEqual([]);
  });

  it('every MCP tool in src/mcp/tools/ has test/mcp/tools/<tool>.test.ts or a folder test/mcp/tools/<tool>/', () => {
    const tools = modules('src/mcp/tools');
    expect(tools.filter((tool) => !existsSync(join(REPO, `test/mcp/tools/${tool}.test.ts`)) && !existsSync(join(REPO, `test/mcp/tools/${tool}`)))).toEqual([]);
  });

  it('the tables above and the per-action and per-tool test files name modules that exist', () => {
    const actions = modules('src/actions');
    expect([...Object.keys(AREA), ...Object.keys(NOT_ACTIONS)].filter((name) => !actions.includes(name))).toEqual([]);
    expect(Object.values(AREA).filter((path) => !existsSync(join(REPO, path)))).toEqual([]);
    const named = (dir: string) => readdirSync(join(REPO, dir)).filter((name) => name.endsWith('.test.ts')).map((name) => name.slice(0, -'.test.ts'.length));
    expect(named('test/actions').filter((name) => !actions.includes(name))).toEqual([]);
    expect(named('test/mcp/tools').filter((name) => !modules('src/mcp/tools').includes(name))).toEqual([]);
  });
});
