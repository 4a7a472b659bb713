import { defineConfig } from 'vitest/config';

// `npm run test:claude`: scenarios inside the real Claude Code (test/e2e/claude/) and the other real tools
// the README's recipes name (test/e2e/recipes/: pre-commit, Codex), which install from a registry. Not part of `npm test`.
export default defineConfig({
  test: {
    include: ['test/e2e/claude/**/*.e2e.ts', 'test/e2e/recipes/**/*.e2e.ts'],
    globalSetup: ['test/e2e/claude/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
