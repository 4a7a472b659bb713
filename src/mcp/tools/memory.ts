/** The `memory` tool: Anthropic's memory-tool commands over /memories, through the store (actions/memory-tool.ts). */
import { runMemoryCommand, type MemoryCommand } from '../../actions/memory-tool.js';
import { MemoryInput } from '../../schemas/memory.js';
import { TOOL_TEXT } from '../descriptions.js';
import { defineTool, textResult } from '../tool.js';

export default defineTool({
  name: 'memory',
  title: 'Memory files',
  description: TOOL_TEXT.memory,
  input: MemoryInput,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  // runMemoryCommand checks the arguments (MemoryInput and what each command needs), as it does for library callers.
  parse: (args) => args,
  async run(args, { root, io }) {
    // The types and rules `memctx add` checks against: this project's configuration, as `lint` finds it.
    const lintConfig = async () => (await import('../../actions/lint.js')).lintSetup({ memoryDir: root }, io).config;
    return textResult(await runMemoryCommand(root, args as MemoryCommand, { now: io.now, lintConfig }));
  },
});
