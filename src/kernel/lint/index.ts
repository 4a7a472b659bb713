export { runLint } from './runner.js';
export { RULES } from './rules/index.js';
export { resolveLintConfig, defaultLintConfig } from './config.js';
export type { Finding, LintConfig, LintInput, LintResult, LintRule } from './types.js';
