import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { betaMemoryTool } from '@anthropic-ai/sdk/helpers/beta/memory';
import { memoryToolHandlers } from '../../../src/memory-tool.js';
import { tempDir } from '../../helpers/cli.js';

// test/e2e/agent/sdk-types.ts checks the handlers against the SDK's types (`npm test` compiles it).
describe("memoryToolHandlers plugged into @anthropic-ai/sdk's betaMemoryTool", () => {
  let dir: string;
  let memory: string;
  beforeEach(() => {
    dir = tempDir('memctx-agent-');
    memory = join(dir, '.memory');
    mkdirSync(memory);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('runs the commands the model sends through the store', async () => {
    const now = () => new Date('2026-11-22T10:00:00Z');
    const tool = betaMemoryTool(memoryToolHandlers(memory, { now }));
    expect(tool).toMatchObject({ type: 'memory_20250818', name: 'memory' });
    expect(await tool.run({ command: 'create', path: '/memories/prefs.md', file_text: 'User prefers tabs.\nIndent Go with tabs.\n' })).toBe('File created successfully at: /memories/prefs.md');
    expect(readFileSync(join(memory, 'prefs.md'), 'utf8')).toBe('---\nname: prefs\ndescription: User prefers tabs.\ntype: project\ncreated: 2026-11-22T10:00:00Z\nupdated: 2026-11-22T10:00:00Z\n---\n\nUser prefers tabs.\nIndent Go with tabs.\n');
    expect(readFileSync(join(memory, 'MEMORY.md'), 'utf8')).toContain('[prefs](prefs.md) — User prefers tabs.');
    expect(await tool.run({ command: 'str_replace', path: '/memories/prefs.md', old_str: 'Go with tabs', new_str: 'Go with gofmt' })).toContain('    10\tIndent Go with gofmt.');
    expect(await tool.run({ command: 'view', path: '/memories/prefs.md', view_range: [10, -1] })).toBe("Here's the content of /memories/prefs.md with line numbers:\n    10\tIndent Go with gofmt.\n    11\t");
    expect(await tool.run({ command: 'rename', old_path: '/memories/prefs.md', new_path: '/memories/user/prefs.md' })).toBe('Successfully renamed /memories/prefs.md to /memories/user/prefs.md');
    await expect(tool.run({ command: 'delete', path: '/memories/user' })).rejects.toThrow('/memories/user is a directory; delete removes one file at a time.');
    expect(await tool.run({ command: 'delete', path: '/memories/user/prefs.md' })).toBe('Successfully deleted /memories/user/prefs.md');
    expect(readFileSync(join(memory, 'MEMORY.md'), 'utf8')).not.toContain('prefs');
  });

  it('rejects with the answer for the model on a refusal', async () => {
    const tool = betaMemoryTool(memoryToolHandlers(memory));
    await expect(tool.run({ command: 'view', path: '/memories/none.md' })).rejects.toThrow('The path /memories/none.md does not exist. Please provide a valid path.');
    await expect(tool.run({ command: 'create', path: '/memories/../x.md', file_text: 'x' })).rejects.toThrow(/^Path \/memories\/\.\.\/x\.md would escape \/memories directory/);
    await expect(tool.run({ command: 'insert', path: '/memories/none.md', insert_line: 0, insert_text: 'x' })).rejects.toThrow('does not exist');
  });
});
