// Type-checked by `npm test` (tsconfig.test.json, which checks every test): memctx's handlers must satisfy the SDK's own types.
import { betaMemoryTool, type MemoryToolHandlers } from '@anthropic-ai/sdk/helpers/beta/memory';
import type { BetaRunnableTool } from '@anthropic-ai/sdk/lib/tools/BetaRunnableTool';
import type { BetaMemoryTool20250818Command } from '@anthropic-ai/sdk/resources/beta';
import { memoryToolHandlers } from '../../../src/memory-tool.js';

const handlers: MemoryToolHandlers = memoryToolHandlers('.memory');
export const tool: BetaRunnableTool<BetaMemoryTool20250818Command> = betaMemoryTool(handlers);
