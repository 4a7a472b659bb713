import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, unlinkSync, type Stats } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MemctxError } from '../../kernel/errors.js';
import { writeFileAtomic } from '../../kernel/store/write.js';
import { gitTopLevelWith, memoryDirOutside, pathInRepo } from '../../kernel/hooks/git.js';
import { git, type Env } from '../../kernel/sources/git.js';
import { addedLines, createdHooksDir, HOOK_NAME, isMemctxHook, renderHookScript, SAVED_SUFFIX } from '../../kernel/hooks/script.js';

/** Where the hook goes for the working tree holding cwd. */
interface HookLocation {
  /** Top of the working tree. */
  top: string;
  /** `git rev-parse --git-path hooks`, absolute: honours core.hooksPath and linked worktrees. */
  hooksDir: string;
  hookPath: string;
  savedPath: string;
  /** The repository's common git directory (shared by linked worktrees). */
  gitDir: string;
}

export type HookAction =
  | { op: 'mkdir'; path: string }
  | { op: 'save'; from: string; to: string }
  | { op: 'write'; path: string; text: string }
  | { op: 'remove'; path: string }
  | { op: 'restore'; from: string; to: string }
  | { op: 'rmdir'; path: string };

export type HookStatus = 'install' | 'update' | 'already-installed' | 'uninstall' | 'not-installed';

export interface HookPlan {
  status: HookStatus;
  location: HookLocation;
  actions: HookAction[];
  warnings: string[];
}

/** The bin of the memctx running now: from the bundle dist/cli/*.js, from dist/src/commands/hook/install.js, or from src/commands/hook/install.ts when tests run the sources. */
function currentBin(): string {
  const candidates = ['../../../bin/memctx.js', '../../../../bin/memctx.js'].map((rel) => fileURLToPath(new URL(rel, import.meta.url)));
  return candidates.find((path) => existsSync(path)) ?? candidates[0];
}

function locateHook(cwd: string, env: Env): HookLocation {
  const asks = [['--git-path', 'hooks'], ['--git-common-dir']];
  const { top, answers } = gitTopLevelWith(cwd, env, asks);
  // Asked from the top, where git runs hooks, so a relative core.hooksPath resolves as git resolves it.
  const [hooks, common] = answers ?? git(['rev-parse', ...asks.flat()], top, env).split('\n');
  const hooksDir = resolve(top, hooks);
  const hookPath = join(hooksDir, HOOK_NAME);
  return { top, hooksDir, hookPath, savedPath: hookPath + SAVED_SUFFIX, gitDir: resolve(top, common) };
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new MemctxError(`cannot read ${path} (${(err as NodeJS.ErrnoException).code})`, { file: path, hint: 'check the permissions of the hooks directory' });
  }
}

/** Whether path is a regular file holding memctx's hook (a symlink or anything else is someone else's). */
function holdsMemctxHook(path: string, stat: Stats | undefined): boolean {
  if (!stat?.isFile()) return false;
  return isMemctxHook(readFileSync(path, 'utf8'));
}

function refuseDirectory(path: string, stat: Stats | undefined): void {
  if (stat?.isDirectory()) {
    throw new MemctxError(`${path} is a directory, not a hook`, { file: path, hint: 'move it out of the hooks directory and run the command again' });
  }
}

export interface InstallOptions {
  cwd: string;
  env: Env;
  /** The memory directory, when one was given or found; recorded as --dir unless it is <top>/.memory. */
  memoryDir?: string;
  /** memoryDir was named (--dir, MEMCTX_DIR) rather than found by walking up. */
  explicit?: boolean;
  node?: string;
  bin?: string;
}

/** What `memctx hook install` would do; changes nothing. */
export function planInstall(options: InstallOptions): HookPlan {
  const location = locateHook(options.cwd, options.env);
  const { top, hooksDir, hookPath, savedPath } = location;
  const warnings: string[] = [];
  const dir = dirArgument(top, options, warnings);
  const hook = lstatOrUndefined(hookPath);
  const ours = holdsMemctxHook(hookPath, hook);
  // Whether memctx created the hooks directory: now, or (kept on an update) when it first installed.
  const createdDir = lstatOrUndefined(hooksDir) === undefined || (ours && createdHooksDir(readFileSync(hookPath, 'utf8')));
  const text = renderHookScript({ node: options.node ?? process.execPath, bin: options.bin ?? currentBin(), dir, createdDir });
  if (pathInRepo(top, hooksDir) !== undefined && pathInRepo(location.gitDir, hooksDir) === undefined) {
    warnings.push(`the hooks directory ${hooksDir} is inside the working tree (core.hooksPath): the change shows in \`git status\``);
  }
  if (/(^|[\\/])\.husky([\\/]|$)/.test(hooksDir)) {
    warnings.push('core.hooksPath points at husky, which rewrites its hooks: add `npx memctx index --staged` to .husky/pre-commit instead');
  }
  const saved = lstatOrUndefined(savedPath);
  refuseDirectory(hookPath, hook);
  refuseDirectory(savedPath, saved);
  if (holdsMemctxHook(savedPath, saved)) {
    throw new MemctxError(`${savedPath} holds memctx's own hook, so chaining it would run memctx twice`, { file: savedPath, hint: 'delete that file and run `memctx hook install` again' });
  }
  if (ours) {
    // Rewritten when another copy of memctx installed it, or when it lost its executable bits.
    const same = readFileSync(hookPath, 'utf8') === text && (hook!.mode & 0o111) === 0o111;
    return { status: same ? 'already-installed' : 'update', location, warnings, actions: same ? [] : [{ op: 'write', path: hookPath, text }] };
  }
  if (hook === undefined && saved !== undefined) {
    throw new MemctxError(`${savedPath} is left from an earlier install but ${hookPath} is gone`, {
      file: savedPath,
      hint: `move it back to ${HOOK_NAME} (or delete it), then run \`memctx hook install\` again`,
    });
  }
  if (hook !== undefined && saved !== undefined) {
    throw new MemctxError(`cannot keep the existing ${HOOK_NAME} hook: ${savedPath} already exists`, {
      file: savedPath,
      hint: 'move or delete that file, then run `memctx hook install` again',
    });
  }
  const actions: HookAction[] = [];
  if (lstatOrUndefined(hooksDir) === undefined) actions.push({ op: 'mkdir', path: hooksDir });
  if (hook !== undefined) actions.push({ op: 'save', from: hookPath, to: savedPath });
  actions.push({ op: 'write', path: hookPath, text });
  return { status: 'install', location, warnings, actions };
}

/** --dir for the hook: the memory directory relative to the top, unless it is the default <top>/.memory. */
function dirArgument(top: string, options: InstallOptions, warnings: string[]): string | undefined {
  const { memoryDir } = options;
  if (memoryDir === undefined) return undefined;
  const rel = pathInRepo(top, memoryDir);
  if (rel === undefined) {
    if (options.explicit) throw memoryDirOutside(memoryDir, top);
    warnings.push(`the nearest memory directory, ${memoryDir}, is outside this repository; the hook will use ${join(top, '.memory')} once \`memctx init\` creates it`);
    return undefined;
  }
  return rel === '.memory' ? undefined : rel === '' ? '.' : rel;
}

/** What `memctx hook uninstall` would do; changes nothing. */
export function planUninstall(options: { cwd: string; env: Env }): HookPlan {
  const location = locateHook(options.cwd, options.env);
  const { hookPath, savedPath } = location;
  const hook = lstatOrUndefined(hookPath);
  const saved = lstatOrUndefined(savedPath);
  const warnings: string[] = [];
  const ours = holdsMemctxHook(hookPath, hook);
  const text = ours ? readFileSync(hookPath, 'utf8') : '';
  const added = addedLines(text);
  if (added.length > 0) {
    const first = added[0];
    throw new MemctxError(`${hookPath} holds ${added.length === 1 ? 'a line' : `${added.length} lines`} added to memctx's hook (line ${first.line}: ${first.text.trim()}); uninstalling would delete ${added.length === 1 ? 'it' : 'them'}, so nothing was changed`, {
      file: hookPath,
      hint: `move your lines into ${savedPath} (an executable script memctx's hook runs first and uninstall puts back as your hook), or delete them; then run \`memctx hook uninstall\` again`,
    });
  }
  const actions: HookAction[] = ours ? [{ op: 'remove', path: hookPath }] : [];
  if (saved !== undefined) {
    if (holdsMemctxHook(savedPath, saved)) {
      actions.push({ op: 'remove', path: savedPath }); // a copy of memctx's own hook: nothing of the user's
    } else if (ours || hook === undefined) {
      actions.push({ op: 'restore', from: savedPath, to: hookPath });
    } else {
      warnings.push(`${hookPath} is not memctx's hook (another tool replaced it?); ${savedPath} was left in place`);
    }
  }
  // The hooks directory memctx created goes too, when nothing else is left in it.
  if (ours && createdHooksDir(text) && !actions.some((a) => a.op === 'restore')) {
    const removed = new Set(actions.map((a) => ('path' in a ? a.path : '')));
    if (readdirSync(location.hooksDir).every((name) => removed.has(join(location.hooksDir, name)))) actions.push({ op: 'rmdir', path: location.hooksDir });
  }
  const status = ours || actions.some((a) => a.op === 'restore') ? 'uninstall' : 'not-installed';
  return { status, location, warnings, actions };
}

/** Carry out a plan. A failed write puts the saved hook back, so the user never loses theirs. */
export async function applyPlan(plan: HookPlan): Promise<void> {
  const done: HookAction[] = [];
  try {
    for (const action of plan.actions) {
      await applyAction(action);
      done.push(action);
    }
  } catch (err) {
    for (const action of done.reverse()) if (action.op === 'save') renameSync(action.to, action.from);
    throw new MemctxError(`could not change the hook: ${(err as Error).message}`, { file: plan.location.hookPath, hint: 'check the permissions of the hooks directory; nothing of yours was lost' });
  }
}

async function applyAction(action: HookAction): Promise<void> {
  switch (action.op) {
    case 'mkdir':
      mkdirSync(action.path, { recursive: true });
      return;
    case 'save':
    case 'restore':
      // A rename keeps the bytes, the mode and even a symlink exactly as they were.
      renameSync(action.from, action.to);
      return;
    case 'write':
      await writeFileAtomic(action.path, action.text);
      chmodSync(action.path, 0o755);
      return;
    case 'remove':
      unlinkSync(action.path);
      return;
    case 'rmdir':
      rmdirSync(action.path);
      return;
  }
}
