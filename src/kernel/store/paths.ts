import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { MemctxError } from '../errors.js';
import { INDEX_FILE } from './layout.js';
const { existsSync, lstatSync, readdirSync, readlinkSync, realpathSync } = process.getBuiltinModule('node:fs');

export interface SafePath {
  /** Absolute path inside the memory directory. */
  abs: string;
  /** Path relative to the memory directory, with `/` separators. */
  rel: string;
}

function refuse(input: string, why: string): never {
  throw new MemctxError(`path "${input}" ${why}`, { hint: 'give a path relative to the memory directory, such as project_auth.md or sessions/x.md' });
}

/**
 * The one containment check: target relative to dir with `/` separators ('' for dir itself), or
 * undefined when target is outside dir (`..notes.md` is below dir; `../notes.md` is not).
 */
export function relativeInside(dir: string, target: string): string | undefined {
  const rel = relative(dir, target);
  if (rel === '..' || rel.startsWith(`..${sep}`) || rel.startsWith('../') || isAbsolute(rel)) return undefined;
  return rel.split(sep).join('/');
}

/** True when target is dir itself or below it. */
export function isInside(dir: string, target: string): boolean {
  return relativeInside(dir, target) !== undefined;
}

/**
 * The path with every existing part resolved through symlinks, dangling ones included (followed
 * by hand, since realpath cannot); undefined for a symlink loop.
 */
export function realExisting(path: string, depth = 0): string | undefined {
  let current = path;
  while (!existsSync(current)) {
    if (isSymlink(current)) {
      if (depth >= 40) return undefined;
      const real = realExisting(resolve(dirname(current), readlinkSync(current)), depth + 1);
      return real === undefined || current === path ? real : join(real, relative(current, path));
    }
    const parent = dirname(current);
    if (parent === current) return current;
    current = parent;
  }
  const real = realpathSync(current);
  return current === path ? real : join(real, relative(current, path));
}

/**
 * Resolve a user-given path inside the memory directory. Refuses absolute paths, `..`, URL-encoded
 * escapes, NUL bytes and symlinks that lead outside. `.md` is appended when missing.
 */
export function resolveMemoryPath(root: string, input: string, options: { addExtension?: boolean; renaming?: string } = {}): SafePath {
  if (input.trim() === '') refuse(input, 'is empty');
  if (input.includes('\0')) refuse(input.replace(/\0/g, '\\0'), 'contains a NUL byte');
  const hidden = invisible().exec(input);
  if (hidden) refuse(visible(input), `contains ${charName(hidden[0])}, which a name must not hold (it hides or reorders what the name shows)`);
  if (/%(2e|2f|5c|00)/i.test(input)) refuse(input, 'contains URL-encoded path characters (%2e, %2f, %5c, %00)');
  if (isAbsolute(input) || /^[A-Za-z]:[\\/]/.test(input) || input.startsWith('\\')) refuse(input, 'is absolute');
  const parts = input.split(/[\\/]+/);
  if (parts.includes('..')) refuse(input, 'leaves the memory directory (`..`)');
  let rel = parts.filter((p) => p !== '' && p !== '.').join('/');
  if (rel === '') refuse(input, 'names the memory directory itself');
  if (options.addExtension !== false && !/\.md$/i.test(rel)) rel += '.md';
  rel = nfcUnlessPresent(root, rel);
  const twin = foldTwin(root, rel);
  // memory.md for MEMORY.md is left to the callers, which refuse the index with their own words.
  // `renaming`: the file being renamed may look like its new name (`mv notes.md Notes.md`).
  if (twin !== undefined && twin !== options.renaming && !(isIndexPath(rel) && isIndexPath(twin))) refuse(input, `looks the same as the existing ${twin} once case, Unicode forms and width are set aside; use that name, or one that differs visibly`);
  const abs = resolve(root, rel);
  if (!isInside(root, abs)) refuse(input, 'leaves the memory directory');
  const realRoot = realpathSync(root);
  const real = realExisting(abs);
  if (real === undefined) refuse(input, 'is a symbolic link loop');
  if (!isInside(realRoot, real)) refuse(input, 'resolves through a symbolic link to outside the memory directory');
  return { abs, rel: rel.split(sep).join('/') };
}

/**
 * Control characters (newline, tab…), format characters (zero-width, bidirectional overrides, BOM) and
 * line/paragraph separators. Made on first use: a literal's Unicode classes are built when the module
 * is parsed (ICU work that every hook loading this module paid for, about 2 M instructions).
 */
const INVISIBLE_SOURCE = '[\\p{Cc}\\p{Cf}\\u2028\\u2029]';
let invisibleOnce: RegExp | undefined;
const invisible = (): RegExp => (invisibleOnce ??= new RegExp(INVISIBLE_SOURCE, 'u'));

const charName = (ch: string) => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
const visible = (input: string) => input.replace(new RegExp(INVISIBLE_SOURCE, 'gu'), (ch) => `<${charName(ch)}>`);

/** A name as compared for look-alikes: compatibility forms (fullwidth, ligatures) and case set aside. */
function foldName(name: string): string {
  return name.normalize('NFKC').toLowerCase().normalize('NFKC');
}

/** rel in NFC, unless rel itself (in another form, as macOS may write it) is what exists. */
function nfcUnlessPresent(root: string, rel: string): string {
  const nfc = rel.normalize('NFC');
  return nfc !== rel && !entryExists(join(root, nfc)) && entryExists(join(root, rel)) ? rel : nfc;
}

/**
 * For a path that does not exist yet: the existing entry (relative path) that one of its new parts
 * would look the same as (foldName), e.g. `ＭＥＭＯＲＹ.md` beside `MEMORY.md` or `Notes.md` beside
 * `notes.md`; undefined when there is none.
 */
function foldTwin(root: string, rel: string): string | undefined {
  const parts = rel.split('/');
  let dir = root;
  for (let i = 0; i < parts.length; i++) {
    const here = join(dir, parts[i]);
    if (entryExists(here)) {
      dir = here;
      continue;
    }
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return undefined;
    }
    const folded = foldName(parts[i]);
    const twin = names.find((name) => foldName(name) === folded);
    return twin === undefined ? undefined : [...parts.slice(0, i), twin].join('/');
  }
  return undefined;
}

/** True for MEMORY.md at the top of the memory directory. */
export function isIndexPath(rel: string): boolean {
  return rel.toLowerCase() === INDEX_FILE.toLowerCase();
}

/** True when anything is at this path, a broken symlink included (existsSync follows links). */
export function entryExists(abs: string): boolean {
  try {
    lstatSync(abs);
    return true;
  } catch {
    return false;
  }
}

export function isSymlink(abs: string): boolean {
  try {
    return lstatSync(abs).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * Check, right before a write, rename or unlink (and after the lock is taken), that the path still
 * resolves inside the memory directory: a folder swapped for a symbolic link while the command
 * waited for the lock is refused, as is a symbolic link at the path itself.
 */
export function assertStillInside(root: string, abs: string): void {
  const realRoot = realpathSync(root);
  const parent = realExisting(dirname(abs));
  const target = isSymlink(abs) ? realExisting(abs) : abs;
  const why = parent === undefined || !isInside(realRoot, parent)
    ? 'a folder on its path now leads outside the memory directory (a symbolic link)'
    : target === undefined || !isInside(realRoot, target === abs ? join(parent, basename(abs)) : target)
      ? 'it is now a symbolic link to outside the memory directory'
      : undefined;
  if (why) {
    throw new MemctxError(`${relative(root, abs).split(sep).join('/')} was not changed: ${why}`, { file: abs, hint: 'replace the link with a real folder or file inside the memory directory, then run the command again' });
  }
}

/** A path as the user should see it: relative to where they stand when it is below, else absolute. */
export function displayPath(cwd: string, abs: string): string {
  const rel = relative(cwd, abs);
  return rel === '' ? '.' : isInside(cwd, abs) ? rel : abs;
}
