import { lintSetup, type LintSetup } from '../lint/setup.js';
import type { Context } from './context.js';

export type { LintSetup } from '../lint/setup.js';

/** lint's, gc's and add's setup for this invocation; configuration warnings go to stderr. */
export function loadLintSetup(ctx: Context, configFile?: string): LintSetup {
  const setup = lintSetup({ memoryDir: ctx.memoryDir(), claude: ctx.globals.claude, configFile }, ctx.io);
  for (const warning of setup.warnings) ctx.ui.warn(warning);
  return setup;
}
