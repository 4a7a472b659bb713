/** What one MCP tool is: its name, what the model reads about it, its input and output schemas, the truth about what it writes, and its handler. */
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type * as v from 'valibot';
import type { Io } from '../io.js';

export interface ToolContext {
  /** The memory directory, absolute and resolved. */
  root: string;
  io: Pick<Io, 'cwd' | 'env' | 'home' | 'now'>;
}

export interface Tool<I extends v.GenericSchema = v.GenericSchema> {
  name: string;
  title: string;
  description: string;
  input: I;
  /** The shape of `structuredContent`; every answer that is not an error carries one that validates. */
  output?: v.GenericSchema;
  /** `readOnlyHint` only for a tool that writes nothing at all, memctx's own caches included. */
  annotations: ToolAnnotations;
  run(args: v.InferOutput<I>, ctx: ToolContext): Promise<CallToolResult>;
}

export function defineTool<I extends v.GenericSchema>(tool: Tool<I>): Tool<I> {
  return tool;
}

export function textResult(value: string, isError = false): CallToolResult {
  return { content: [{ type: 'text', text: value }], ...(isError ? { isError: true } : {}) };
}

export function structuredResult(value: Record<string, unknown>, summary: string): CallToolResult {
  return { content: [{ type: 'text', text: summary }], structuredContent: value };
}
