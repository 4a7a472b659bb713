import { defineConfig } from 'vitest/config';

// `npm run test:claude`: scenarios inside the real Claude Code (test/claude/) and the other real tools
// the README's recipes name (test/recipes/: pre-commit, Codex), which install from a registry. Not part of `npm test`.
export default defineConfig({
  test: {
    include: ['test/claude/**/*.e2e.ts', 'test/recipes/**/*.e2e.ts'],
    globalSetup: ['test/claude/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
