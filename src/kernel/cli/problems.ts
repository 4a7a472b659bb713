import { join } from 'node:path';
import type { FileProblem } from '../store/types.js';
import type { Context } from './context.js';
import { displayPath } from '../store/paths.js';

/** Report unreadable files on stderr, with paths the user can open from where they stand. */
export function reportProblems(ctx: Context, root: string, problems: FileProblem[]): void {
  for (const problem of problems) {
    ctx.ui.problem({ ...problem, path: displayPath(ctx.io.cwd, join(root, problem.path)) });
  }
}
