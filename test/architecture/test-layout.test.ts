// Tests mirror src/ file for file (design §3): the tests of src/<path>.ts are test/<path>.test.ts, or the
// files of a folder test/<path>/ when one module needs several. Three folders mirror nothing: test/e2e/
// (the built bin, the npm package and the real agents: claude/, codex/, recipes/ are run by their own
// vitest configs), test/helpers/ (shared set-ups, no tests) and test/architecture/ (checks over the whole
// repository: layout, imports, documents). test/bench/ mirrors bench/ the same way. No list of exceptions:
// a module that declares only types, or only re-exports (a barrel), has no logic to test.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.js';

const NOT_MIRRORS = ['e2e/', 'helpers/', 'architecture/'];

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));
}

const TEST = join(REPO, 'test');
const testFiles = () => files(TEST).map((file) => relative(TEST, file));
const srcModules = () => files(join(REPO, 'src')).filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts')).map((file) => relative(join(REPO, 'src'), file).slice(0, -'.ts'.length));

/** The source file a test path mirrors: src/ for everything but test/bench/, which mirrors bench/. */
const source = (module: string) => (module.startsWith('bench/') ? join(REPO, `${module}.ts`) : join(REPO, 'src', `${module}.ts`));

/** True when a test file mirrors a module: test/<m>.test.ts, or test/<m>/<anything>.test.ts. */
function mirrors(test: string): boolean {
  const module = test.slice(0, -'.test.ts'.length);
  return existsSync(source(module)) || existsSync(source(module.slice(0, module.lastIndexOf('/'))));
}

/** Declarations that run: a top-level function, class, enum or variable (not a type, an interface or a re-export). */
const LOGIC = /^(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:async\s+)?(?:function\*?|class|enum|const|let|var)\s|^export\s+default\s/m;

/** A module has logic unless it only declares types or re-exports other modules. */
function hasLogic(module: string): boolean {
  const text = readFileSync(join(REPO, 'src', `${module}.ts`), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
  return LOGIC.test(text);
}

const tested = (module: string) => existsSync(join(TEST, `${module}.test.ts`)) || existsSync(join(TEST, module));

describe('tests mirror src/', () => {
  it('every test file outside test/e2e/, test/helpers/ and test/architecture/ mirrors an existing module', () => {
    const strays = testFiles().filter((test) => test.endsWith('.test.ts') && !NOT_MIRRORS.some((folder) => test.startsWith(folder)) && !mirrors(test));
    expect(strays).toEqual([]);
  });

  it('test/ holds no file other than tests outside test/e2e/ and test/helpers/', () => {
    const others = testFiles().filter((test) => !test.endsWith('.test.ts') && !['e2e/', 'helpers/'].some((folder) => test.startsWith(folder)));
    expect(others).toEqual([]);
  });

  it('every lint rule has its own test file, test/kernel/lint/rules/<category>/<name>.test.ts', () => {
    const rules = srcModules().filter((module) => /^kernel\/lint\/rules\/[^/]+\/[^/]+$/.test(module));
    expect(rules.length).toBeGreaterThan(20);
    expect(rules.filter((rule) => !tested(rule))).toEqual([]);
  });

  it('every module with logic has test/<path>.test.ts or test/<path>/', () => {
    expect(srcModules().filter((module) => hasLogic(module) && !tested(module))).toEqual([]);
  });

  it('tells a module with logic from one that only declares types or re-exports', () => {
    expect(hasLogic('kernel/bundle/select')).toBe(true);
    expect(hasLogic('kernel/rank/types')).toBe(false);
    expect(hasLogic('kernel/tokens/index')).toBe(false);
  });
});
