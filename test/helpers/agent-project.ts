/** What the flush tests share: a project with memctx initialised, the files written, a file read back, and six good fields. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { parseMemoryText } from '../../src/kernel/store/parse.js';
import { builtInTemplate } from '../../src/kernel/summary/templates.js';
import { parseBody } from '../../src/kernel/summary/render.js';
import { tempDir } from './cli.js';
import { runCli } from './run.js';

/** A new project (a temporary folder named from `prefix`) where `memctx init` exited 0: the folder and its memory directory. */
export async function initProject(prefix: string): Promise<{ project: string; mem: string }> {
  const project = tempDir(prefix);
  expect((await runCli(['init'], { cwd: project })).code).toBe(0);
  return { project, mem: join(project, '.memory') };
}

/** The names of the files in one folder of the memory directory `mem` (sessions/ unless told), sorted. */
export function sessionsIn(mem: string, dir = 'sessions'): string[] {
  const abs = join(mem, dir);
  return existsSync(abs) ? readdirSync(abs).sort() : [];
}

/** A memory file of `mem` read back: its text and its parse. */
export function readMemoryIn(mem: string, rel: string) {
  const text = readFileSync(join(mem, rel), 'utf8');
  return { text, file: parseMemoryText(rel, text, { mtimeMs: 0, size: text.length }) };
}

/** One session file of `mem`: its frontmatter and its six fields. */
export function sessionIn(mem: string, name: string) {
  const parsed = parseMemoryText(name, readFileSync(join(mem, 'sessions', name), 'utf8'), { mtimeMs: 0, size: 0 });
  return { data: parsed.data, fields: parseBody(builtInTemplate('session'), parsed.body) };
}

/** Six fields an agent summary may hold, as flush options. */
export const SIX = ['--goal', 'Add rate limiting to the API', '--progress', 'Token bucket middleware in src/limit.js', '--decision', 'Token bucket, not a fixed window: bursts stay fair', '--changed', 'src/limit.js', '--blocker', 'none', '--next', 'Tune the bucket size on staging'];
