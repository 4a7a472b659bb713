// The layout ARCHITECTURE.md draws, held against the imports: commands apart, the kernel below them, no cycles.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.js';

const SRC = join(REPO, 'src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

/** Every module's relative imports (static, re-exports and dynamic `import()`, type-only ones too), as paths below src/. */
function importGraph(options: { types: boolean }): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const pattern = options.types
    ? /^(?:import|export)\s+[^;]*?from\s+'(\.{1,2}\/[^']+)'|import\('(\.{1,2}\/[^']+)'\)/gm
    : /^(?:import|export)\s+(?!type\b)[^;]*?from\s+'(\.{1,2}\/[^']+)'|(?<!typeof )import\('(\.{1,2}\/[^']+)'\)/gm;
  for (const file of sources(SRC)) {
    const specs = [...readFileSync(file, 'utf8').matchAll(pattern)].map((m) => m[1] ?? m[2]);
    graph.set(relative(SRC, file), specs.map((s) => relative(SRC, resolve(dirname(file), s.replace(/\.js$/, '.ts')))));
  }
  return graph;
}

/** Each cycle once, as the list of modules around it. */
function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') found.push(stack.slice(stack.indexOf(next)));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return found;
}

const commandOf = (path: string): string | undefined => /^commands\/([^/]+)\//.exec(path)?.[1];
const edges = (graph: Map<string, string[]>) => [...graph].flatMap(([from, tos]) => tos.map((to) => ({ from, to })));
const COMMANDS = readdirSync(join(SRC, 'commands'));

describe('the layout', () => {
  const graph = importGraph({ types: true });

  it('has no import cycles', () => {
    expect(cycles(importGraph({ types: false }))).toEqual([]);
  });

  it('a command never imports another command', () => {
    const across = edges(graph).filter(({ from, to }) => commandOf(from) && commandOf(to) && commandOf(from) !== commandOf(to));
    expect(across.map(({ from, to }) => `${from} -> ${to}`)).toEqual([]);
  });

  it('the kernel imports no command, nothing of src/mcp/ and not src/main.ts', () => {
    const upward = edges(graph).filter(({ from, to }) => from.startsWith('kernel/') && !to.startsWith('kernel/'));
    expect(upward.map(({ from, to }) => `${from} -> ${to}`)).toEqual([]);
  });

  it('every command folder but memory has a cli.ts that registers it, and the MCP server lists exactly the tool.ts files', () => {
    const registers = (name: string) => existsSync(join(SRC, 'commands', name, 'cli.ts')) && /export (?:async )?function register\(/.test(readFileSync(join(SRC, 'commands', name, 'cli.ts'), 'utf8'));
    const withoutCli = COMMANDS.filter((name) => !registers(name));
    expect(COMMANDS.filter((name) => !existsSync(join(SRC, 'commands', name, 'cli.ts')))).toEqual(['memory']);
    expect(withoutCli.filter((name) => name !== 'memory')).toEqual([]);
    const tools = COMMANDS.filter((name) => existsSync(join(SRC, 'commands', name, 'tool.ts'))).map((name) => `commands/${name}/tool.ts`);
    const listed = (graph.get('mcp/tool-list.ts') ?? []).filter((to) => to.startsWith('commands/') && to.endsWith('/tool.ts'));
    expect(tools.length).toBeGreaterThan(5);
    expect(listed.sort()).toEqual(tools.sort());
  });

  it("a lint rule's path is its id", () => {
    const dir = join(SRC, 'kernel/lint/rules');
    const rules = sources(dir).filter((file) => dirname(file) !== dir);
    const mismatched = rules.flatMap((file) => {
      const id = /\bid: '([^']+)'/.exec(readFileSync(file, 'utf8'))?.[1];
      const path = relative(dir, file).replace(/\.ts$/, '');
      return id === path ? [] : [`${path}: ${id}`];
    });
    expect(rules.length).toBeGreaterThan(20);
    expect(mismatched).toEqual([]);
  });
});
