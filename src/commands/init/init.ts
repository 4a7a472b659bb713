/** `memctx init`: create the memory directory (never overwriting) and, with `agent`, wire an agent to it. */
import { existsSync } from 'node:fs';
import { applyAgentPlan, planAgent, type Agent, type AgentPlan } from './agent.js';
import { initMemoryDir } from './scaffold.js';
import { planIndex } from '../../kernel/memindex/reindex.js';
import { findRepository } from '../../kernel/sources/repo.js';
import { pathInRepo } from '../../kernel/hooks/git.js';
import { addMergeAttribute, mergeDriverCommand, mergeDriverSetup, setMergeDriverConfig } from '../../kernel/hooks/merge-driver.js';
import { findLauncher } from '../../kernel/hooks/launcher.js';
import type { SummaryAgent } from '../../kernel/summary/summarizers.js';

export interface InitOptions {
  /** The memory directory, absolute. */
  root: string;
  agent?: Agent;
  dryRun?: boolean;
  /** Codex: the MCP server goes to the user's config.toml instead of the project's. */
  userConfig?: boolean;
  /** At SessionEnd, ask this agent for the summary in the background. */
  summarizeWith?: SummaryAgent;
}

export interface InitDeps {
  cwd: string;
  env: Record<string, string | undefined>;
  home?: string;
}

export interface InitResult {
  dir: string;
  /** What was created, relative to `dir` (`.` for the directory itself); with `dryRun`, what would be. */
  created: string[];
  dryRun: boolean;
  /** The agent's files: what changed (or would), with warnings. */
  agent?: AgentPlan;
  /** True when the MEMORY.md merge driver was newly defined in the repository's git config. */
  mergeDriver?: boolean;
  /** With mergeDriver: the `git config` line each teammate runs once. */
  mergeDriverSetup?: string;
}

export async function init(options: InitOptions, deps: InitDeps): Promise<InitResult> {
  const { root } = options;
  // Check the agent's files first, so a refusal there leaves everything as it was.
  const agentPlan = options.agent ? await planAgentFor(options.agent, root, deps, { userConfig: Boolean(options.userConfig), summarizeWith: options.summarizeWith }) : undefined;
  let created: string[] = [];
  let mergeDriverSetup: string | undefined;
  if (!options.dryRun) {
    created = await initMemoryDir(root, async () => (await planIndex(root)).text);
    if (agentPlan) await applyAgentPlan(agentPlan);
    mergeDriverSetup = await registerMergeDriver(root, deps, created);
  } else if (!existsSync(root)) {
    created = ['.'];
  }
  return { dir: root, created, dryRun: Boolean(options.dryRun), ...(agentPlan ? { agent: agentPlan } : {}), ...(mergeDriverSetup ? { mergeDriver: true, mergeDriverSetup } : {}) };
}

/**
 * In a git repository holding the memory directory: route MEMORY.md to memctx's merge driver
 * (`.gitattributes`, added to `created`) and define the driver in the local git config, starting
 * memctx the way the project has it installed. The teammates' setup line when newly defined.
 */
async function registerMergeDriver(root: string, deps: InitDeps, created: string[]): Promise<string | undefined> {
  const repo = findRepository(root, root, deps.env);
  if (!repo.git || pathInRepo(repo.root, root) === undefined) return undefined;
  if (await addMergeAttribute(root)) created.push('.gitattributes');
  const command = mergeDriverCommand(findLauncher(repo.root, root, deps.env));
  return setMergeDriverConfig(repo.root, deps.env, command) ? mergeDriverSetup(command) : undefined;
}

async function planAgentFor(agent: Agent, memoryDir: string, deps: InitDeps, options: { userConfig: boolean; summarizeWith?: SummaryAgent }): Promise<AgentPlan> {
  const project = findRepository(deps.cwd, deps.cwd, deps.env).root;
  return planAgent(agent, project, memoryDir, deps.env, { ...options, home: deps.home });
}
