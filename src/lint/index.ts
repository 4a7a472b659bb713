export { runLint } from './runner.js';
export { RULES, findRule } from './rules/index.js';
export { resolveLintConfig, defaultLintConfig, ConfigError, DEFAULT_THRESHOLDS } from './config.js';
export type { Finding, Fix, LintConfig, LintInput, LintResult, LintRule, RuleSetting, Severity, Thresholds } from './types.js';
