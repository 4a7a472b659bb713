// The agent's own session summary (kernel/summary/agent-summary.ts): the six fields it must give, the
// summary call in a transcript, and what happened after it (test/commands/flush/agent-summary.test.ts
// runs flush --agent-summary and SessionEnd over it).
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/cli.js';
import { afterAgentSummary, completeAgentValues, isSummaryCall, laterFacts, missingAgentFields } from '../../../src/kernel/summary/agent-summary.js';
import { readTranscript } from '../../../src/kernel/transcript/index.js';

let project: string;
let mem: string;

beforeEach(() => {
  project = tempDir('memctx-agent-summary-');
  mem = join(project, '.memory');
});

/** A Claude Code transcript: lines in order, each `{ type, message }`, with a session id and cwd. */
function claudeLines(lines: Array<{ role: 'user' | 'assistant'; content: unknown; usage?: object }>): string {
  return lines
    .map((line, i) =>
      JSON.stringify({
        type: line.role,
        uuid: `u-${i}`,
        sessionId: 'sess-a',
        cwd: project,
        isSidechain: false,
        message: line.role === 'assistant' ? { id: `msg_${i}`, role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: line.content, usage: line.usage ?? { input_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 1000, output_tokens: 5 } } : { role: 'user', content: line.content },
      }),
    )
    .join('\n')
    .concat('\n');
}

const flushCall = { type: 'tool_use', id: 'toolu_flush', name: 'mcp__memctx__flush', input: { goal: 'Add rate limiting to the API' } };

describe('missingAgentFields', () => {
  it('missingAgentFields: a blank item does not count; "none" does', () => {
    expect(missingAgentFields({ goal: ['g'], progress: ['  '], decisions: ['none'], changedFiles: [], blockers: ['none'], nextSteps: ['n'] })).toEqual(['progress', 'changed_files']);
  });
});

describe('finding what happened after the summary', () => {
  it('recognises the MCP tool and `memctx flush` in a shell, never the hook', () => {
    expect(isSummaryCall({ kind: 'tool_call', toolName: 'mcp__memctx__flush', toolInput: {} })).toBe(true);
    expect(isSummaryCall({ kind: 'tool_call', toolName: 'Bash', toolInput: { command: 'memctx flush --agent-summary --goal x' } })).toBe(true);
    expect(isSummaryCall({ kind: 'tool_call', toolName: 'Bash', toolInput: { command: 'echo {} | memctx flush --hook' } })).toBe(false);
    expect(isSummaryCall({ kind: 'tool_call', toolName: 'mcp__other__flush', toolInput: {} })).toBe(false);
    expect(isSummaryCall({ kind: 'message', toolName: 'mcp__memctx__flush', toolInput: {} })).toBe(false);
  });

  it('afterAgentSummary takes the last call; laterFacts leaves out the memory directory and files outside the project', () => {
    const t = readTranscript(
      claudeLines([
        { role: 'assistant', content: [flushCall] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Write', input: { file_path: join(project, '.memory/notes.md'), content: 'x' } }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't2', name: 'Write', input: { file_path: '/etc/elsewhere.conf', content: 'x' } }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't3', name: 'Edit', input: { file_path: join(project, 'src/a.js'), old_string: 'a', new_string: 'b' } }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Edited a.js.\nMore text.' }] },
      ]),
    );
    const later = afterAgentSummary(t.items)!;
    expect(laterFacts(later, project, mem)).toEqual({ files: ['src/a.js'], lastLine: 'Edited a.js. More text.' });
    expect(afterAgentSummary(t.items.slice(1))).toBeUndefined();
  });

  it('completeAgentValues replaces a lone "none" in Changed Files and never lists a file twice', () => {
    expect(completeAgentValues({ changedFiles: ['none'], progress: ['p'] }, { files: ['a.js'] })).toEqual({ values: { changedFiles: ['a.js (changed after the summary)'], progress: ['p'] }, added: ['1 file(s) changed after it'] });
    expect(completeAgentValues({ changedFiles: ['a.js — the limiter'] }, { files: ['a.js'] }).added).toEqual([]);
  });
});
