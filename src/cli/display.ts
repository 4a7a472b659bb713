import { relative } from 'node:path';
import { isInside } from '../store/paths.js';

/** A path as the user should see it: relative to where they stand when it is below, else absolute. */
export function displayPath(cwd: string, abs: string): string {
  const rel = relative(cwd, abs);
  return rel === '' ? '.' : isInside(cwd, abs) ? rel : abs;
}
