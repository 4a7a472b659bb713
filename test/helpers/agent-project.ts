/** What the agent-summary tests share: a session file read back, the files written, and six good fields. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseMemoryText } from '../../src/kernel/store/parse.js';
import { builtInTemplate } from '../../src/kernel/summary/templates.js';
import { parseBody } from '../../src/kernel/summary/render.js';

/** The session files of the memory directory `mem`, sorted. */
export function sessionsIn(mem: string): string[] {
  const dir = join(mem, 'sessions');
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

/** One session file of `mem`: its frontmatter and its six fields. */
export function sessionIn(mem: string, name: string) {
  const parsed = parseMemoryText(name, readFileSync(join(mem, 'sessions', name), 'utf8'), { mtimeMs: 0, size: 0 });
  return { data: parsed.data, fields: parseBody(builtInTemplate('session'), parsed.body) };
}

/** Six fields an agent summary may hold, as flush options. */
export const SIX = ['--goal', 'Add rate limiting to the API', '--progress', 'Token bucket middleware in src/limit.js', '--decision', 'Token bucket, not a fixed window: bursts stay fair', '--changed', 'src/limit.js', '--blocker', 'none', '--next', 'Tune the bucket size on staging'];
