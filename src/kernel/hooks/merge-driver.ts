/**
 * The git merge driver for MEMORY.md (`memctx merge-index`): a `.gitattributes` line in the memory
 * directory routes MEMORY.md to it, and the repository's local git config defines it. Git config is
 * not shared by cloning, so each teammate runs the one `git config` line (mergeDriverSetup) or
 * `memctx init` / `memctx hook install`; without it git merges MEMORY.md as plain text.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../store/write.js';
import { git, type Env } from '../sources/git.js';
import { shellQuote } from './script.js';
import type { Launcher } from './launcher.js';

const MERGE_DRIVER = 'memctx';
/** %P (the file's path) lets messages name MEMORY.md rather than git's temporary file. */
const ARGS = 'merge-index %O %A %B %P';
/** The form without %P, which earlier versions registered and memctx still accepts. */
const OLD_ARGS = 'merge-index %O %A %B';
/** What memctx registered before the driver started memctx the way the project has it installed. */
const BARE_COMMANDS = [`memctx ${OLD_ARGS}`, `memctx ${ARGS}`];
/** In the memory directory's .gitattributes: MEMORY.md at its top. */
const MERGE_ATTRIBUTE = `/MEMORY.md merge=${MERGE_DRIVER}`;

/** A path as a shell word: bare when plain, else quoted. */
const shellWord = (path: string) => (/^[\w./-]+$/.test(path) ? path : shellQuote(path));

/**
 * The driver command (git runs it with sh at the top of the working tree): the project's memctx
 * (a devDependency) first, else the one on PATH; with neither, a message naming what to install and
 * git's own text merge (`git merge-file`: conflict markers, both sides kept, exit 1 on a conflict).
 */
export function mergeDriverCommand(launcher: Pick<Launcher, 'bin'>): string {
  const local = launcher.bin === undefined ? '' : `if [ -x ${shellWord(launcher.bin)} ]; then exec ${shellWord(launcher.bin)} ${ARGS}; fi; `;
  const install = launcher.bin === undefined ? 'npm install -g memctx' : 'npm install: memctx is in devDependencies';
  const message = `memctx merge driver: memctx not found${launcher.bin === undefined ? ' on PATH' : ` (not at ${launcher.bin}, not on PATH)`}; install it (${install}), then run memctx index. MEMORY.md is merged as plain text.`;
  return `${local}if command -v memctx >/dev/null 2>&1; then exec memctx ${ARGS}; fi; echo "${message.replace(/["$`\\]/g, '\\$&')}" >&2; exec git merge-file -L ours -L base -L theirs %A %O %B`;
}

/** The line for a teammate's clone (init prints it; the README gives the devDependency form). */
export function mergeDriverSetup(command: string): string {
  return `git config merge.${MERGE_DRIVER}.driver ${shellQuote(command)}`;
}

/** Add the attribute line to `<root>/.gitattributes` unless there; true when the file changed. */
export async function addMergeAttribute(root: string): Promise<boolean> {
  const path = join(root, '.gitattributes');
  const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
  if (text.split(/\r?\n/).some((line) => line.trim() === MERGE_ATTRIBUTE)) return false;
  await writeFileAtomic(path, `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}${MERGE_ATTRIBUTE}\n`, { inside: root });
  return true;
}

/**
 * True when the repository's local git config defines the driver: as memctx would (`command`), or in a
 * form the user chose, such as `npx --no-install memctx merge-index …`. The bare `memctx merge-index`
 * earlier versions wrote is not kept when `command` differs: it fails where memctx is a devDependency.
 */
export function mergeDriverSet(top: string, env: Env, command: string): boolean {
  let value: string;
  try {
    value = git(['config', '--local', '--get', `merge.${MERGE_DRIVER}.driver`], top, env).trim();
  } catch {
    return false; // not set (git config exits 1)
  }
  return value === command || (!BARE_COMMANDS.includes(value) && value.includes(` ${OLD_ARGS}`));
}

/** Define the driver in the repository's local git config; true when it was not defined so before. */
export function setMergeDriverConfig(top: string, env: Env, command: string): boolean {
  if (mergeDriverSet(top, env, command)) return false;
  git(['config', '--local', `merge.${MERGE_DRIVER}.name`, 'memctx: MEMORY.md keeps both sides, rebuilds the index block'], top, env);
  git(['config', '--local', `merge.${MERGE_DRIVER}.driver`, command], top, env);
  return true;
}
