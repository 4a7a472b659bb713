import { relative } from 'node:path';

/** A path as the user can open it from where they stand: relative when inside cwd, else absolute. */
export function displayPath(cwd: string, abs: string): string {
  const rel = relative(cwd, abs);
  return rel === '' ? '.' : rel.startsWith('..') ? abs : rel;
}
