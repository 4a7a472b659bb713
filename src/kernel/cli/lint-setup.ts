import { lintSetup, type LintSetup } from '../lint/setup.js';
import type { LintConfig } from '../lint/types.js';
import type { LintPlace } from '../lint/place.js';
import type { Context } from './context.js';

export type { LintSetup } from '../lint/setup.js';

/** lint's, gc's, add's and edit's setup for this invocation (from `place` when lintPlace was read first); configuration warnings go to stderr. */
export function loadLintSetup(ctx: Context, configFile?: string, place?: LintPlace): LintSetup {
  const setup = lintSetup({ memoryDir: ctx.memoryDir(), claude: ctx.globals.claude, configFile }, ctx.io, place);
  for (const warning of setup.warnings) ctx.ui.warn(warning);
  return setup;
}

/** The configuration as a write command's checks ask for it, loaded on the first ask only (its warnings printed once). */
export function lintConfigOnce(ctx: Context): () => LintConfig {
  let setup: LintSetup | undefined;
  return () => (setup ??= loadLintSetup(ctx)).config;
}
