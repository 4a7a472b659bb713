import type { ChalkInstance } from 'chalk';
import type { LintConfig, LintResult, LintRule } from '../../../kernel/lint/types.js';

export interface FormatOptions {
  /** The path to print for a memory-relative path (stylish: relative to the working directory). */
  displayPath(file: string): string;
  absolutePath(file: string): string;
  /** Relative to the repository root with `/` separators (GitHub, SARIF); undefined when outside it. */
  repoPath(file: string): string | undefined;
  /** The repository root, absolute (SARIF's %SRCROOT%). */
  repoRoot?: string;
  /** Colours for stylish; pass a level-0 instance for plain text. */
  chalk: ChalkInstance;
  rules: LintRule[];
  config: LintConfig;
  version: string;
  /** memctx's home page and repository (from its package.json), for SARIF's links; left out when unset. */
  links?: { home?: string; repository?: string };
}

/** The report as one text, or in pieces to write one after another (a long JSON report). */
export type Formatter = (result: LintResult, options: FormatOptions) => string | Generator<string>;
