import { defineConfig } from 'vitest/config';

// `npm run test:claude`: scenarios inside the real Claude Code (test/claude/). Not part of `npm test`.
export default defineConfig({
  test: {
    include: ['test/claude/**/*.e2e.ts'],
    globalSetup: ['test/claude/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
