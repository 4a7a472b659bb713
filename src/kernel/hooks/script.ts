/** The pre-commit hook script memctx installs, and how to recognise it. */

export const HOOK_NAME = 'pre-commit';
/** Where an existing hook is kept while memctx's hook is installed; the script runs it first. */
export const SAVED_SUFFIX = '.memctx-saved';
/** A line only memctx's hook has. */
export const HOOK_MARKER = '# memctx-hook: pre-commit v1';
/** In the hook when `memctx hook install` created its directory, so uninstall removes the directory again when empty. */
const CREATED_DIR_MARKER = '# memctx-hook: created the hooks directory';

export interface HookScriptOptions {
  /** Absolute path of the node binary that ran `memctx hook install`. */
  node: string;
  /** Absolute path of that memctx's bin/memctx.js. */
  bin: string;
  /** `--dir` for the memory directory, relative to the top of the working tree; omitted for `.memory`. */
  dir?: string;
  /** memctx created the hooks directory (recorded in the script for uninstall). */
  createdDir?: boolean;
}

/** A shell word that sh reads back as exactly `value`. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** Git for Windows runs hooks with sh, which wants C:/x rather than C:\x. */
function shellPath(path: string): string {
  return path.replace(/\\/g, '/');
}

export function isMemctxHook(text: string): boolean {
  return text.split(/\r?\n/).includes(HOOK_MARKER);
}

export function createdHooksDir(text: string): boolean {
  return text.split(/\r?\n/).includes(CREATED_DIR_MARKER);
}

/**
 * Lines of an installed memctx hook that memctx's script does not have: what the user added. The
 * node and bin paths and the --dir argument may differ between installs and are not counted.
 */
export function addedLines(text: string): { line: number; text: string }[] {
  const ours = new Set(renderHookScript({ node: '', bin: '', createdDir: true }).split('\n'));
  const same = (line: string) => ours.has(line.replace(/^(node|bin)='.*'$/, `$1=''`).replace(/ --dir '(?:[^']|'\\'')*' index --staged/, ' index --staged'));
  return text
    .split(/\r?\n/)
    .map((line, i) => ({ line: i + 1, text: line }))
    .filter((l) => l.text.trim() !== '' && !same(l.text));
}

export function renderHookScript(options: HookScriptOptions): string {
  const args = [...(options.dir === undefined ? [] : ['--dir', shellQuote(options.dir)]), 'index', '--staged'].join(' ');
  return `#!/bin/sh
${HOOK_MARKER}
${options.createdDir ? `${CREATED_DIR_MARKER}\n` : ''}# Rebuilds and stages MEMORY.md when a commit changes memory files. Installed by
# \`memctx hook install\`; \`memctx hook uninstall\` removes it and puts back the hook it replaced.

# The hook that was here before, kept beside this one: it runs first and can still stop the commit.
saved="$(dirname "$0")/${HOOK_NAME}${SAVED_SUFFIX}"
if [ -x "$saved" ]; then
  "$saved" "$@" || exit $?
fi

# memctx: the copy that installed this hook, else the project's own, else the one on PATH.
node=${shellQuote(shellPath(options.node))}
bin=${shellQuote(shellPath(options.bin))}
if [ -x "$node" ] && [ -f "$bin" ]; then
  exec "$node" "$bin" ${args}
fi
top="$(git rev-parse --show-toplevel 2>/dev/null || pwd)"
if [ -x "$top/node_modules/.bin/memctx" ]; then
  exec "$top/node_modules/.bin/memctx" ${args}
fi
if command -v memctx >/dev/null 2>&1; then
  exec memctx ${args}
fi
echo "memctx pre-commit hook: cannot find memctx (not at $bin, not in node_modules/.bin, not on PATH)." >&2
echo "  install it (npm install --save-dev memctx) and run \\\`memctx hook install\\\` again, or commit with --no-verify" >&2
exit 1
`;
}
