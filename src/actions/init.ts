/** `memctx init`: create the memory directory (never overwriting) and, with `agent`, wire an agent to it. */
import { existsSync } from 'node:fs';
import type { Agent, AgentPlan } from '../hooks/agent.js';

export interface InitOptions {
  /** The memory directory, absolute. */
  root: string;
  agent?: Agent;
  dryRun?: boolean;
  /** Codex: the MCP server goes to the user's config.toml instead of the project's. */
  userConfig?: boolean;
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
}

export async function init(options: InitOptions, deps: InitDeps): Promise<InitResult> {
  const { root } = options;
  // Check the agent's files first, so a refusal there leaves everything as it was.
  const agentPlan = options.agent ? await planAgentFor(options.agent, root, deps, Boolean(options.userConfig)) : undefined;
  let created: string[] = [];
  let mergeDriver = false;
  if (!options.dryRun) {
    const { initMemoryDir } = await import('../store/init.js');
    const { planIndex } = await import('./reindex.js');
    created = await initMemoryDir(root, async () => (await planIndex(root)).text);
    if (agentPlan) await (await import('../hooks/agent.js')).applyAgentPlan(agentPlan);
    mergeDriver = await registerMergeDriver(root, deps, created);
  } else if (!existsSync(root)) {
    created = ['.'];
  }
  return { dir: root, created, dryRun: Boolean(options.dryRun), ...(agentPlan ? { agent: agentPlan } : {}), ...(mergeDriver ? { mergeDriver } : {}) };
}

/**
 * In a git repository holding the memory directory: route MEMORY.md to memctx's merge driver
 * (`.gitattributes`, added to `created`) and define the driver in the local git config.
 */
async function registerMergeDriver(root: string, deps: InitDeps, created: string[]): Promise<boolean> {
  const { findRepository } = await import('../sources/repo.js');
  const { pathInRepo } = await import('../hooks/git.js');
  const repo = findRepository(root, root, deps.env);
  if (!repo.git || pathInRepo(repo.root, root) === undefined) return false;
  const { addMergeAttribute, setMergeDriverConfig } = await import('../hooks/merge-driver.js');
  if (await addMergeAttribute(root)) created.push('.gitattributes');
  return setMergeDriverConfig(repo.root, deps.env);
}

async function planAgentFor(agent: Agent, memoryDir: string, deps: InitDeps, userConfig: boolean): Promise<AgentPlan> {
  const { findRepository } = await import('../sources/repo.js');
  const { planAgent } = await import('../hooks/agent.js');
  const project = findRepository(deps.cwd, deps.cwd, deps.env).root;
  return planAgent(agent, project, memoryDir, deps.env, { userConfig, home: deps.home });
}
