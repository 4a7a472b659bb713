import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../../helpers/cli.js';
import { changedFiles, readClaudeTranscript, readTranscript } from '../../../src/kernel/transcript/index.js';

const fixture = (name: string) => readFileSync(join(FIXTURES, 'transcripts', name), 'utf8');

const jsonl = (...lines: unknown[]) => lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n';



describe('changed files', () => {
  it('finds files written by Claude Code, Codex and OpenAI tool calls, leaving out failed calls', () => {
    expect(changedFiles(readTranscript(fixture('claude-session.jsonl')).items)).toEqual([{ path: '/home/dev/shop/src/auth/refresh.ts', tool: 'Edit', line: 8 }]);
    expect(changedFiles(readTranscript(fixture('codex-session.jsonl')).items).map((f) => f.path)).toEqual(['src/routes/login.ts', 'src/middleware/limiter.ts']);
    expect(changedFiles(readTranscript(fixture('openai-messages.json')).items).map((f) => f.path)).toEqual(['src/checkout/pool.ts']);
    const failed = readClaudeTranscript(
      jsonl(
        { type: 'assistant', message: { id: 'm', role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Write', input: { file_path: 'a.ts', content: 'x' } }, { type: 'tool_use', id: 't2', name: 'MultiEdit', input: { file_path: 'b.ts', edits: [] } }, { type: 'tool_use', id: 't3', name: 'Read', input: { file_path: 'c.ts' } }] } },
        { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', is_error: true, content: 'denied' }] } },
      ),
    );
    expect(changedFiles(failed.items).map((f) => `${f.tool} ${f.path}`)).toEqual(['MultiEdit b.ts']);
  });
});
