/** What lint's use-case and CI tests share: a memory with two files missing their type and one valid file, indexed. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './cli.js';
import { runMemctx } from './run.js';

export const LINT_NOW = new Date('2026-11-22T12:00:00Z');

/** A memory file with every required field. */
export const good = (name: string, body = 'Plain text.\n') => `---\nname: ${name}\ndescription: About ${name}\ntype: project\nupdated: 2026-11-20T00:00:00Z\n---\n\n${body}`;

/** A memory file without its `type` (frontmatter/required). */
export const noType = (name: string, body = 'Plain text.\n') => `---\nname: ${name}\ndescription: About ${name}\nupdated: 2026-11-20T00:00:00Z\n---\n\n${body}`;

/** A project whose .memory/ holds a.md and b.md without a type and a valid c.md, with MEMORY.md built. */
export async function lintProject(): Promise<{ cwd: string; memory: string }> {
  const cwd = tempDir('memctx-lint-ci-');
  const memory = join(cwd, '.memory');
  mkdirSync(memory);
  writeFileSync(join(memory, 'a.md'), noType('a'));
  writeFileSync(join(memory, 'b.md'), noType('b'));
  writeFileSync(join(memory, 'c.md'), good('c'));
  await runMemctx(['index'], { cwd, now: LINT_NOW });
  return { cwd, memory };
}
