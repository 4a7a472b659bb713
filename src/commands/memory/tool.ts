/** The `memory` tool: Anthropic's memory-tool commands over /memories, through the store (actions/memory-tool.ts). */
import { runMemoryCommand, type MemoryCommand } from './memory.js';
import { MemoryInput } from './schema.js';
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

/** What the model reads about the tool: what it does, when to use it, its limits. */
const DESCRIPTION = [
  "Read and change the project's memory files: the commands and arguments of Anthropic's memory tool (memory_20250818).",
  'Paths start with /memories. view: a directory lists files (size, path, description) two levels deep; a file is shown',
  'with line numbers (view_range [start, end], end -1 = last line). create: a new .md file (never overwrites; a file',
  'without frontmatter gets one with name, description, type, created and updated, so view it before editing by line).',
  'str_replace: old_str must occur exactly once. insert: insert_text goes after line insert_line (0 = top). delete: a',
  'file or directory. rename: old_path to new_path (never overwrites). Every change sets `updated` and rebuilds',
  'MEMORY.md, which cannot be changed directly. Keep each file on one topic and under about 2,000 tokens.',
].join(' ');

export default defineTool({
  name: 'memory',
  title: 'Memory files',
  description: DESCRIPTION,
  input: MemoryInput,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  // runMemoryCommand checks the arguments (MemoryInput and what each command needs), as it does for library callers.
  parse: (args) => args,
  async run(args, { root, io }) {
    return textResult(await runMemoryCommand(root, args as MemoryCommand, { now: io.now, lintConfig: () => lintConfig(root, io) }));
  },
});
