/**
 * `memctx/memory-tool`: Anthropic's memory-tool commands over a memory directory, for agents built
 * on the Anthropic API. With `@anthropic-ai/sdk`:
 *
 *   import { betaMemoryTool } from '@anthropic-ai/sdk/helpers/beta/memory';
 *   import { memoryToolHandlers } from 'memctx/memory-tool';
 *   const memory = betaMemoryTool(memoryToolHandlers('.memory'));
 */
export { memoryToolHandlers, runMemoryCommand, MemoryToolError, MEMORY_COMMANDS, MEMORIES } from './commands/memory/memory.js';
export type { MemoryCommand, MemoryCommandName, MemoryToolDeps } from './commands/memory/memory.js';
