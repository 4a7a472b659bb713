/**
 * proper-lockfile, loaded on the first lock with a plain `require`: an ES module import of a CommonJS
 * package makes Node parse it for its export names as well.
 */
import { createRequire } from 'node:module';
import type * as ProperLockfile from 'proper-lockfile';

type Lockfile = typeof ProperLockfile;

const requireHere = createRequire(import.meta.url);
let loaded: Lockfile | undefined;

/** proper-lockfile's exports (the same object as `import lockfile from 'proper-lockfile'` gives). */
export function properLockfile(): Lockfile {
  return (loaded ??= requireHere('proper-lockfile') as Lockfile);
}
