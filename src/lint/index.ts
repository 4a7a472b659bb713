export { runLint, activeRules, needsTokens } from './runner.js';
export { RULES, findRule } from './rules/index.js';
export { resolveLintConfig, defaultLintConfig, ConfigError, DEFAULT_THRESHOLDS } from './config.js';
export type { Finding, Fix, LintConfig, LintInput, LintResult, LintRule, Report, RuleContext, RuleSetting, Severity, Thresholds } from './types.js';
