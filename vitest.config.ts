import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/helpers/setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Speed (issue 9: the suite in under a minute on 2 cores). Threads start faster than forks, and
    // without per-file isolation each worker loads src/, the tokenizer and js-tiktoken once instead of
    // once per file. Test files must therefore restore what they change in the process (env, mocks).
    // Three workers, not vitest's default of one on 2 cores: many tests wait on git or a child memctx.
    pool: 'threads',
    isolate: false,
    maxWorkers: 3,
  },
});
