// memory/schema.ts: the memory tool's arguments, each command's own checked (tool.test.ts calls the tool over MCP).
import { describe, expect, it } from 'vitest';
import { MEMORY_COMMANDS, parseMemoryCommand } from '../../../src/commands/memory/schema.js';

describe('parseMemoryCommand', () => {
  it("takes Anthropic's six commands with what each needs", () => {
    expect([...MEMORY_COMMANDS]).toEqual(['view', 'create', 'str_replace', 'insert', 'delete', 'rename']);
    expect(parseMemoryCommand({ command: 'view', path: '/memories', view_range: [1, -1] })).toEqual({ command: 'view', path: '/memories', view_range: [1, -1] });
    expect(parseMemoryCommand({ command: 'insert', path: '/memories/a.md', insert_line: 0, insert_text: 'x' })).toMatchObject({ insert_line: 0 });
    expect(parseMemoryCommand({ command: 'rename', old_path: '/memories/a.md', new_path: '/memories/b.md' })).toMatchObject({ command: 'rename' });
  });

  it('says what a command is missing and what it takes', () => {
    expect(() => parseMemoryCommand({ command: 'rename', old_path: '/memories/a.md' })).toThrow('rename needs new_path; it takes old_path, new_path');
    expect(() => parseMemoryCommand({ command: 'str_replace', path: '/memories/a.md' })).toThrow('str_replace needs old_str, new_str; it takes path, old_str, new_str');
    expect(() => parseMemoryCommand({ command: 'view' })).toThrow('view needs path; it takes path and optionally view_range');
  });

  it('refuses a view_range that is not two whole numbers, and an unknown command', () => {
    expect(() => parseMemoryCommand({ command: 'view', path: '/memories', view_range: [1] })).toThrow('view_range must be a list of two numbers [first line, last line]');
    expect(() => parseMemoryCommand({ command: 'view', path: '/memories', view_range: [1.5, 2] })).toThrow('view_range must hold whole numbers');
    expect(() => parseMemoryCommand({ command: 'chmod', path: '/memories/a.md' })).toThrow(/^command must be one of view, create, str_replace, insert, delete, rename, got "chmod"$/);
  });
});
