/** What one MCP tool is: its name, what the model reads about it, its input and output schemas, the truth about what it writes, and its handler. */
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type * as v from 'valibot';
import type { Io } from '../io.js';
import { ARG_LABEL, parseInput } from '../schema.js';

export interface ToolContext {
  /** The memory directory, absolute and resolved. */
  root: string;
  io: Pick<Io, 'cwd' | 'env' | 'home' | 'now'>;
}

interface ToolParts<I extends v.GenericSchema, A> {
  name: string;
  title: string;
  description: string;
  /** The arguments' schema: `inputSchema` is generated from it, and the arguments are checked by it. */
  input: I;
  /** The shape of `structuredContent`; every answer that is not an error carries one that validates. */
  output?: v.GenericSchema;
  /** `readOnlyHint` only for a tool that writes nothing at all, memctx's own caches included. */
  annotations: ToolAnnotations;
  /** Where the arguments are checked, when not by `input` alone (the memory tool's library entry checks its own). */
  parse?: (args: unknown) => A;
  run(args: A, ctx: ToolContext): Promise<CallToolResult>;
}

/** A tool as the server holds it: the arguments go in unchecked and are checked once, by the tool's schema. */
export interface Tool extends Omit<ToolParts<v.GenericSchema, unknown>, 'run' | 'parse'> {
  run(args: unknown, ctx: ToolContext): Promise<CallToolResult>;
}

export function defineTool<I extends v.GenericSchema, A = v.InferOutput<I>>(parts: ToolParts<I, A>): Tool {
  const { parse = (args: unknown) => parseInput(parts.input, args, ARG_LABEL) as A, run, ...rest } = parts;
  return { ...rest, run: (args, ctx) => run(parse(args), ctx) };
}

export function textResult(value: string, isError = false): CallToolResult {
  return { content: [{ type: 'text', text: value }], ...(isError ? { isError: true } : {}) };
}

export function structuredResult(value: Record<string, unknown>, summary: string): CallToolResult {
  return { content: [{ type: 'text', text: summary }], structuredContent: value };
}
