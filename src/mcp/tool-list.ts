/** The MCP tools (src/mcp/tools/, one module each), in the order tools/list shows them; mcp/server.ts loads this module on the first call. */
import type { Tool } from './tool.js';
import flush from './tools/flush.js';
import lint from './tools/lint.js';
import memory from './tools/memory.js';
import pack from './tools/pack.js';
import search from './tools/search.js';
import status from './tools/status.js';
import verify from './tools/verify.js';

export const TOOLS: readonly Tool[] = [memory, search, pack, status, flush, lint, verify];
