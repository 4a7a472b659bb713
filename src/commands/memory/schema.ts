/** The `memory` tool's input (Anthropic's memory_20250818 commands): one flat object, each command's fields checked by the tool. */
import * as v from 'valibot';
import { MemctxError } from '../../kernel/errors.js';
import { ARG_LABEL, choice, flag, parseInput, text, whole } from '../../kernel/schema.js';

export const MEMORY_COMMANDS = ['view', 'create', 'str_replace', 'insert', 'delete', 'rename'] as const;

export const MemoryInput = v.strictObject({
  command: choice(MEMORY_COMMANDS, 'view, create, str_replace, insert, delete or rename'),
  path: v.optional(text('a path under /memories, e.g. /memories/project_auth.md (all commands but rename)')),
  view_range: v.optional(
    v.pipe(
      v.array(v.pipe(v.number('must hold whole numbers'), v.integer('must hold whole numbers')), 'must be a list [first line, last line]'),
      v.length(2, 'must be a list of two numbers [first line, last line]'),
      v.description('view only: [first line, last line], 1-based; last -1 for the end of the file'),
    ),
  ),
  file_text: v.optional(text('create only: the whole text of the new file')),
  old_str: v.optional(text('str_replace only: the exact text to replace; it must occur exactly once')),
  new_str: v.optional(text('str_replace only: the replacement text')),
  insert_line: v.optional(whole('insert only: 0 inserts before line 1, N inserts after line N', 0)),
  insert_text: v.optional(text('insert only: the text to insert')),
  old_path: v.optional(text('rename only: the current path under /memories')),
  new_path: v.optional(text('rename only: the new path under /memories')),
  force: v.optional(flag('create and str_replace: keep the file even when it nearly duplicates another memory (refused otherwise)')),
});

/** What each memory command needs besides `command`. */
const MEMORY_REQUIRED: Record<(typeof MEMORY_COMMANDS)[number], string[]> = {
  view: ['path'],
  create: ['path', 'file_text'],
  str_replace: ['path', 'old_str', 'new_str'],
  insert: ['path', 'insert_line', 'insert_text'],
  delete: ['path'],
  rename: ['old_path', 'new_path'],
};

/** A memory command's arguments checked: types, allowed values and what the command needs (through MCP and the library alike). */
export function parseMemoryCommand(input: unknown): v.InferOutput<typeof MemoryInput> {
  const args = parseInput(MemoryInput, input, ARG_LABEL);
  const absent = MEMORY_REQUIRED[args.command].filter((key) => (args as Record<string, unknown>)[key] === undefined);
  if (absent.length) {
    throw new MemctxError(`${args.command} needs ${absent.join(', ')}; it takes ${MEMORY_REQUIRED[args.command].join(', ')}${args.command === 'view' ? ' and optionally view_range' : ''}`);
  }
  return args;
}
