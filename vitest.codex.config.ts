import { defineConfig } from 'vitest/config';

// `npm run test:codex`: scenarios inside the real Codex CLI (test/codex/). Not part of `npm test`.
export default defineConfig({
  test: {
    include: ['test/codex/**/*.e2e.ts'],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
