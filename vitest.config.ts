import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/helpers/setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Speed (issue 9, issue 31: the suite in under a minute on 2 cores). Without per-file isolation each
    // worker loads src/, the tokenizer and js-tiktoken once instead of once per file. Test files must
    // therefore restore what they change in the process (env, mocks). Forks, not threads: the suite
    // starts git and node about 2,500 times, and every start copies the page tables of the process that
    // starts it; threads share one process holding every worker's heap (1-2 GB), which cost ~30 s of
    // system time per run, against one worker's heap for a fork. Three workers, not vitest's default
    // of one on 2 cores: many tests wait on git or a child memctx.
    pool: 'forks',
    isolate: false,
    maxWorkers: 3,
  },
});
