/**
 * How the commands `init --agent` writes start memctx: from the project's own install when there is
 * one (a devDependency), else the global one on PATH. A bare `memctx` in a hook fails with
 * "memctx: not found" when memctx is only a devDependency.
 */
import { existsSync, statSync } from 'node:fs';
import { delimiter, dirname, join, relative, resolve } from 'node:path';

export interface Launcher {
  /** local: the project's node_modules/.bin; global: memctx on PATH; missing: neither was found. */
  kind: 'local' | 'global' | 'missing';
  /** How a hook or status line command (run by /bin/sh in the project) starts memctx. */
  shell: string;
  /** How an MCP client starts memctx: the command and the words before the memctx arguments. */
  mcp: { command: string; args: string[] };
  /** What init says about the choice. */
  note: string;
  /** local: the project's memctx, relative to the project (`node_modules/.bin/memctx`). */
  bin?: string;
}

/** The project's `node_modules/.bin/memctx` nearest the memory directory, at or below the project root. */
function localBin(project: string, memoryDir: string): string | undefined {
  const top = resolve(project);
  let dir = resolve(dirname(memoryDir));
  // Only directories inside the project: a memory directory elsewhere (--dir) is looked up from the root.
  if (relative(top, dir).startsWith('..')) dir = top;
  for (;;) {
    const bin = join(dir, 'node_modules', '.bin', 'memctx');
    if (existsSync(bin)) return bin;
    if (dir === top || dirname(dir) === dir) return undefined;
    dir = dirname(dir);
  }
}

function onPath(env: Record<string, string | undefined>, skip: string | undefined): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const bin = join(dir, 'memctx');
    if (skip !== undefined && resolve(dirname(bin)) === resolve(dirname(skip))) continue;
    try {
      if (statSync(bin).isFile()) return bin;
    } catch {
      // not here
    }
  }
  return undefined;
}

export function findLauncher(project: string, memoryDir: string, env: Record<string, string | undefined>): Launcher {
  const local = localBin(project, memoryDir);
  const global = onPath(env, local);
  if (local) {
    const rel = relative(project, local).split('\\').join('/');
    const prefix = rel.slice(0, -'node_modules/.bin/memctx'.length).replace(/\/$/, '');
    const also = global ? `; the global ${global} is also installed, the project's own is preferred` : '';
    return {
      kind: 'local',
      // Claude Code sets CLAUDE_PROJECT_DIR for hooks and the status line; quoted, a path with spaces works.
      shell: `"$CLAUDE_PROJECT_DIR"/${rel}`,
      // .mcp.json gets no CLAUDE_PROJECT_DIR; npx finds node_modules/.bin from the directory Claude Code runs in.
      mcp: { command: 'npx', args: ['--no-install', ...(prefix ? ['--prefix', prefix] : []), 'memctx'] },
      note: `commands start the project's memctx (${rel})${also}`,
      bin: rel,
    };
  }
  if (global) return { kind: 'global', shell: 'memctx', mcp: { command: 'memctx', args: [] }, note: `commands start the global memctx on PATH (${global})` };
  return {
    kind: 'missing',
    shell: 'memctx',
    mcp: { command: 'memctx', args: [] },
    note: 'memctx was found neither in node_modules/.bin nor on PATH; the commands call `memctx`, which fails until memctx is installed (see the README\'s Install section), then run init --agent again',
  };
}
