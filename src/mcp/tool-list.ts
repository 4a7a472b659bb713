/** The MCP tools (src/mcp/tools/, one module each), in the order tools/list shows them; mcp/server.ts loads this module on the first call. */
import type { Tool } from '../kernel/mcp/tool.js';
import flush from '../commands/flush/tool.js';
import lint from '../commands/lint/tool.js';
import memory from '../commands/memory/tool.js';
import pack from '../commands/pack/tool.js';
import search from '../commands/search/tool.js';
import status from '../commands/status/tool.js';
import verify from '../commands/verify/tool.js';

export const TOOLS: readonly Tool[] = [memory, search, pack, status, flush, lint, verify];
