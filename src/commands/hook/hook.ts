/** `memctx hook install|uninstall`: plan the pre-commit hook's change and, unless a dry run, make it. */
import { planInstall, planUninstall, applyPlan, type HookAction, type HookStatus } from './install.js';
import type { Env } from '../../kernel/sources/git.js';
import { mergeDriverCommand, mergeDriverSetup, mergeDriverSet, setMergeDriverConfig } from '../../kernel/hooks/merge-driver.js';
import { findLauncher } from '../../kernel/hooks/launcher.js';
import { join } from 'node:path';

export interface HookDeps {
  cwd: string;
  env: Env;
}

export interface HookResult {
  status: HookStatus;
  dryRun: boolean;
  /** Where git runs the hook from. */
  hook: string;
  hooksDir: string;
  /** What was (or would be) done, in order. */
  actions: HookAction[];
  warnings: string[];
  /** install: the `git config` line that defines the MEMORY.md merge driver, and what install did about it. */
  mergeDriver?: { setup: string; state: 'set' | 'already-set' | 'would-set' };
}

export async function hookInstall(options: { memoryDir: string | undefined; explicit: boolean; dryRun: boolean }, deps: HookDeps): Promise<HookResult> {
  const plan = planInstall({ cwd: deps.cwd, env: deps.env, memoryDir: options.memoryDir, explicit: options.explicit });
  const result = await carryOut(plan, options.dryRun);
  // The pre-commit hook keeps MEMORY.md right at commit time; the merge driver keeps it right at merge time.
  const { top } = plan.location;
  const command = mergeDriverCommand(findLauncher(top, options.memoryDir ?? join(top, '.memory'), deps.env));
  const state = mergeDriverSet(top, deps.env, command) ? 'already-set' : options.dryRun ? 'would-set' : (setMergeDriverConfig(top, deps.env, command), 'set');
  return { ...result, mergeDriver: { setup: mergeDriverSetup(command), state } };
}

export async function hookUninstall(options: { dryRun: boolean }, deps: HookDeps): Promise<HookResult> {
  return carryOut(planUninstall({ cwd: deps.cwd, env: deps.env }), options.dryRun);
}

async function carryOut(plan: import('./install.js').HookPlan, dryRun: boolean): Promise<HookResult> {
  if (!dryRun) await applyPlan(plan);
  return { status: plan.status, dryRun, hook: plan.location.hookPath, hooksDir: plan.location.hooksDir, actions: plan.actions, warnings: plan.warnings };
}
