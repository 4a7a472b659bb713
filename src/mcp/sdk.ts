/**
 * The parts of the MCP SDK the server runs on, in one module: commands/mcp/cli.ts loads it beside
 * server.ts when the server starts, so `memctx --help` (which loads cli.ts) loads none of the SDK.
 */
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/index.js';

export { Server } from '@modelcontextprotocol/sdk/server/index.js';
export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
export { deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
export { CallToolRequestSchema, ErrorCode, ListResourcesRequestSchema, ListToolsRequestSchema, McpError, ReadResourceRequestSchema } from '@modelcontextprotocol/sdk/types.js';

/**
 * The server's JSON Schema validator: the SDK's server validates with one only what a client answers to
 * an elicitation, and memctx asks the client for nothing; without it the SDK builds an ajv instance
 * (and its formats) on every start.
 */
export const NO_ELICITATION: jsonSchemaValidator = {
  getValidator: () => () => ({ valid: false, data: undefined, errorMessage: 'memctx asks the client for nothing (no elicitation)' }),
};
