/** The `memory` tool: Anthropic's memory-tool commands over /memories, through the store (actions/memory-tool.ts). */
import { runMemoryCommand, type MemoryCommand } from './memory.js';
import { MemoryInput } from './schema.js';
import { TOOL_TEXT } from '../../kernel/mcp/descriptions.js';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { lintSetup, type LintSetup } from '../../kernel/lint/setup.js';
import type { LintConfig } from '../../kernel/lint/types.js';
import { CONFIG_FILE, MEMORY_CONFIG_FILE } from '../../kernel/sources/config.js';
import { defineTool, textResult, type ToolContext } from '../../kernel/mcp/tool.js';

let found: { root: string; setup: LintSetup; stamp: string } | undefined;

/** The configuration files' mtimes: a new, changed or removed file means reading the setup again. */
function stamp(setup: LintSetup): string {
  return [join(setup.repo.root, CONFIG_FILE), join(setup.root, MEMORY_CONFIG_FILE)].map((p) => statSync(p, { throwIfNoEntry: false })?.mtimeMs ?? '-').join();
}

/**
 * The types and rules `memctx add` checks against: this project's configuration, as `lint` finds it.
 * Finding the repository runs git, so the setup is kept while the configuration files are unchanged.
 */
async function lintConfig(root: string, io: ToolContext['io']): Promise<LintConfig> {
  if (found?.root === root && found.stamp === stamp(found.setup)) return found.setup.config;
  const setup = lintSetup({ memoryDir: root }, io);
  found = { root, setup, stamp: stamp(setup) };
  return setup.config;
}

export default defineTool({
  name: 'memory',
  title: 'Memory files',
  description: TOOL_TEXT.memory,
  input: MemoryInput,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  // runMemoryCommand checks the arguments (MemoryInput and what each command needs), as it does for library callers.
  parse: (args) => args,
  async run(args, { root, io }) {
    return textResult(await runMemoryCommand(root, args as MemoryCommand, { now: io.now, lintConfig: () => lintConfig(root, io) }));
  },
});
