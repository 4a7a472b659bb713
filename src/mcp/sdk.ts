/**
 * The MCP SDK's server side, from the SDK's own `require` exports (its CommonJS build): Node loads its
 * files (zod, ajv, zod-to-json-schema) with fewer instructions as CommonJS than as ES modules (about
 * 1.1-1.8x node's own start-up on Node 24 and 20). Every part comes from this one module, so the server,
 * its transport, the request schemas and McpError are one copy of the SDK.
 */
import { createRequire } from 'node:module';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/index.js';

const require = createRequire(import.meta.url);

export const { Server } = require('@modelcontextprotocol/sdk/server/index.js') as typeof import('@modelcontextprotocol/sdk/server/index.js');
export const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js') as typeof import('@modelcontextprotocol/sdk/server/stdio.js');
export const { deserializeMessage } = require('@modelcontextprotocol/sdk/shared/stdio.js') as typeof import('@modelcontextprotocol/sdk/shared/stdio.js');
export const { CallToolRequestSchema, ErrorCode, ListResourcesRequestSchema, ListToolsRequestSchema, McpError, ReadResourceRequestSchema } =
  require('@modelcontextprotocol/sdk/types.js') as typeof import('@modelcontextprotocol/sdk/types.js');

/**
 * The server's JSON Schema validator: the SDK validates with one only what a client answers to an
 * elicitation, and memctx asks the client for nothing, so it needs no validator (the SDK's default
 * would build an ajv instance on every start).
 */
export const NO_ELICITATION: jsonSchemaValidator = {
  getValidator: () => () => ({ valid: false, data: undefined, errorMessage: 'memctx asks the client for nothing (no elicitation)' }),
};
