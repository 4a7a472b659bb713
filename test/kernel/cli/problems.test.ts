// cli/problems.ts: unreadable files on stderr, with paths that open from the working directory.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportProblems } from '../../../src/kernel/cli/problems.js';
import { runHandler } from '../../helpers/context.js';

describe('reportProblems', () => {
  it('one line per problem, its path as seen from the working directory, its line and hint', async () => {
    const cwd = '/work/project/src';
    const result = await runHandler({ cwd }, async (ctx) => {
      reportProblems(ctx, '/work/project/.memory', [
        { path: 'notes/bad.md', line: 3, message: 'invalid YAML', hint: 'close the quote' },
        { path: 'binary.md', message: 'not UTF-8 text' },
      ]);
      reportProblems(ctx, join(cwd, 'mem'), [{ path: 'x.md', message: 'unreadable' }]);
      return 0;
    });
    expect(result).toEqual({
      code: 0,
      stdout: '',
      stderr: '/work/project/.memory/notes/bad.md:3: error: invalid YAML\n  hint: close the quote\n/work/project/.memory/binary.md: error: not UTF-8 text\nmem/x.md: error: unreadable\n',
    });
  });
});
