import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.js';

const SRC = join(REPO, 'src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

/** Every module's relative imports (static, re-exports and dynamic `import()`), type-only ones left out. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sources(SRC)) {
    const text = readFileSync(file, 'utf8');
    const specs = [...text.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from\s+'(\.{1,2}\/[^']+)'|import\('(\.{1,2}\/[^']+)'\)/gm)].map((m) => m[1] ?? m[2]);
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

describe('the layers', () => {
  const graph = importGraph();

  it('has no import cycles', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('keeps store/ the memory store only: it imports nothing above it', () => {
    const below = /^(store\/|errors\.ts$|dates\.ts$|lines\.ts$|values\.ts$|markdown\/|text\/shell\.ts$)/;
    const upward = [...graph].flatMap(([from, tos]) => (from.startsWith('store/') ? tos.filter((to) => !below.test(to)).map((to) => `${from} -> ${to}`) : []));
    expect(upward).toEqual([]);
  });

  it('keeps the layers below the CLI free of it: nothing outside cli/ imports cli/ (the MCP server aside, which takes its io type)', () => {
    const upward = [...graph].flatMap(([from, tos]) => (from.startsWith('cli/') || from === 'index.ts' ? [] : tos.filter((to) => to.startsWith('cli/')).map((to) => `${from} -> ${to}`)));
    expect(upward).toEqual([]);
  });
});
