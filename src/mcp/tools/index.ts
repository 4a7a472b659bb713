/** The MCP tools, in the order tools/list shows them (mcp/server.ts loads this module on the first call). */
import type { Tool } from '../tool.js';
import flush from './flush.js';
import lint from './lint.js';
import memory from './memory.js';
import pack from './pack.js';
import search from './search.js';
import status from './status.js';

export const TOOLS: readonly Tool[] = [memory, search, pack, status, flush, lint];
