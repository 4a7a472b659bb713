import { defineConfig } from 'vitest/config';

// `npm run test:codex`: scenarios inside the real Codex CLI (test/e2e/codex/). Not part of `npm test`.
export default defineConfig({
  test: {
    include: ['test/e2e/codex/**/*.e2e.ts'],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
