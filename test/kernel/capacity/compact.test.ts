import { describe, expect, it } from 'vitest';
import { compactTranscript, condense, isConfirmation, missingMarkedLines, normalizeOutput, verbatimStart } from '../../../src/kernel/capacity/compact.js';
import type { Transcript, TranscriptItem } from '../../../src/kernel/transcript/types.js';

const say = (role: 'user' | 'assistant', text: string, line: number): TranscriptItem => ({ role, kind: 'message', text, line });
const callItem = (name: string, input: unknown, line: number): TranscriptItem => ({ role: 'assistant', kind: 'tool_call', text: JSON.stringify(input), toolName: name, toolInput: input, line });
const out = (text: string, line: number): TranscriptItem => ({ role: 'tool', kind: 'tool_result', text, line, toolName: 'Bash' });
const transcript = (items: TranscriptItem[]): Transcript => ({ format: 'claude', items, contextStart: 0, usage: null, notes: [] });
const lines = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i + 1)).join('\n');

describe('normalizeOutput', () => {
  it('replaces timestamps, durations and ids, so two runs of one command compare equal', () => {
    expect(normalizeOutput('run at 2026-03-06T11:05:40Z took 1.92s id 3f1c2b7e-5d1a-4c3e-9a4b-2e8f6d7c1a90 commit a1b2c3d4e5 toolu_01ABC at 10:12:01')).toBe(
      'run at <time> took <duration> id <id> commit <id> <id> at <time>',
    );
    expect(normalizeOutput('a\nb 12ms\nc at 10:00:01')).toBe(normalizeOutput('a\nb 99ms\nc at 11:30:59'));
    // a file's contents are not volatile: two files that differ stay different
    expect(normalizeOutput('size 1024')).not.toBe(normalizeOutput('size 2048'));
  });
});

describe('compaction rules', () => {
  const testRun = (at: string, failing: boolean) => lines(60, (i) => (failing && i === 30 ? `× case ${i} failed at ${at}` : `✓ case ${i} ${i % 7}ms`));

  it('collapses a repeat of one command output (volatile parts aside) to a reference naming it', () => {
    const items = [say('user', 'go', 1), callItem('Bash', { command: 'npm test' }, 2), out(testRun('10:00:00', false), 3), callItem('Bash', { command: 'npm test' }, 4), out(testRun('10:05:00', false), 5), callItem('Bash', { command: 'npm test' }, 6), out(testRun('10:09:00', false).replace('case 3 ', 'case three '), 7)];
    for (const [call, result] of [[1, 2], [3, 4], [5, 6]]) items[call].toolId = items[result].toolId = `t${call}`;
    const r = compactTranscript(transcript(items), { keepLast: 0 });
    expect(r.duplicates).toBe(1);
    expect(r.markdown).toContain('[same output as the Bash command: npm test result at line 3 (occurrence 2)]');
    expect(r.markdown).toContain('✓ case three 3ms'); // it differs: kept, condensed
    expect(r.condensed).toBe(2);
  });
  it('never collapses outputs of different inputs, even when the texts are the same', () => {
    const same = lines(10, (i) => `line ${i}`);
    const items = [say('user', 'x', 1), callItem('Read', { file_path: 'a.ts' }, 2), out(same, 3), callItem('Read', { file_path: 'b.ts' }, 4), out(same, 5)];
    items[1].toolId = items[2].toolId = 'a';
    items[3].toolId = items[4].toolId = 'b';
    expect(compactTranscript(transcript(items), { keepLast: 0 }).duplicates).toBe(0);
  });
  it('keeps a tool output that differs, and a repeat whose reference would be longer', () => {
    const a = lines(10, (i) => `line ${i}`);
    const b = lines(10, (i) => (i <= 7 ? `line ${i}` : `different ${i}`));
    const r = compactTranscript(transcript([say('user', 'x', 1), out(a, 2), say('assistant', 'y', 3), out(b, 4)]), { keepLast: 0 });
    expect(r.duplicates).toBe(0);
    expect(r.markdown).toContain('different 10');
    const tiny = compactTranscript(transcript([say('user', 'x', 1), out('ok 1', 2), say('assistant', 'y', 3), out('ok 1', 4)]), { keepLast: 0 });
    expect(tiny.duplicates).toBe(0);
    expect(tiny.markdown).toContain('### Tool result: Bash (line 4)\n\n```\nok 1\n```');
  });
  it('condenses an output over 50 lines to its first 10 lines, its error and marked lines, and a count', () => {
    const text = lines(80, (i) => (i === 44 ? 'Error: connection refused' : i === 60 ? 'note BUG-12 reproduced' : `row ${i}`));
    expect(condense(text, 10)).toBe([...Array.from({ length: 10 }, (_, i) => `row ${i + 1}`), '[… 68 of 80 lines left out; kept the first 10, 1 error or test line, 1 marked line …]', 'Error: connection refused', 'note BUG-12 reproduced'].join('\n'));
    const r = compactTranscript(transcript([say('user', 'x', 1), out(text, 2)]), { keepLast: 0 });
    expect(r.condensed).toBe(1);
    const exactly50 = lines(50, (i) => `row ${i}`);
    expect(compactTranscript(transcript([say('user', 'x', 1), out(exactly50, 2)]), { keepLast: 0 }).condensed).toBe(0);
  });
  it('condenses tool inputs over 50 lines too (a Write of a whole file)', () => {
    const content = lines(120, (i) => (i === 90 ? '// TODO: handle retries' : `const v${i} = ${i};`));
    const r = compactTranscript(transcript([say('user', 'x', 1), callItem('Write', { file_path: 'a.ts', content }, 2)]), { keepLast: 0 });
    expect(r.condensed).toBe(1);
    expect(r.markdown).toContain('file_path: a.ts');
    expect(r.markdown).toContain('// TODO: handle retries');
    expect(r.markdown).not.toContain('const v50 = 50;');
  });
  it('shrinks bare success confirmations to one line, not outputs with errors', () => {
    expect(isConfirmation("The file /a.ts has been updated. Here's the result of running `cat -n` on a snippet of the edited file:\n 1→x\n 2→y\n 3→z")).toBe(true);
    expect(isConfirmation('File created successfully at: /a.ts')).toBe(true);
    expect(isConfirmation('Success. Updated the following files:\nM a.ts')).toBe(true);
    expect(isConfirmation('Done, but 2 errors were found')).toBe(false);
    expect(isConfirmation('src/a.ts:12: found it')).toBe(false);
    const r = compactTranscript(transcript([say('user', 'x', 1), out("The file /a.ts has been updated. Here's the result of running `cat -n` on a snippet of the edited file:\n 1→x\n 2→y\n 3→z", 2)]), { keepLast: 0 });
    expect(r.confirmations).toBe(1);
    expect(r.markdown).toContain('```\n✓ The file /a.ts has been updated.\n```');
  });
  it('keeps the last exchanges verbatim', () => {
    const items = [say('user', 'a', 1), callItem('Bash', {}, 2), out('o1', 3), say('assistant', 'b', 4), say('user', 'c', 5), say('assistant', 'd', 6), say('user', 'e', 7), say('assistant', 'f', 8)];
    // exchanges start at lines 1, 3, 5, 7
    expect(verbatimStart(items, 2)).toBe(4);
    expect(verbatimStart(items, 4)).toBe(0);
    expect(verbatimStart(items, 10)).toBe(0);
    expect(verbatimStart(items, 0)).toBe(items.length);
    const long = lines(70, (i) => `x${i}`);
    const r = compactTranscript(transcript([say('user', 'a', 1), out(long, 2), say('user', 'b', 3), out(long, 4)]), { keepLast: 1 });
    expect(r.verbatimFrom).toBe(3);
    expect(r.condensed).toBe(1);
    expect(r.markdown).toContain('x70');
  });
  it('keeps every marked line, including those in collapsed duplicates', () => {
    const run = (at: string) => lines(20, (i) => `step ${i} at ${at}`) + '\nBLOCKER: second';
    const items = [say('user', 'DECISION: use Redis', 1), out(run('10:00'), 2), say('assistant', 'again', 3), out(run('10:01'), 4), say('user', 'end ISSUE-9', 5)];
    const r = compactTranscript(transcript(items), { keepLast: 0 });
    expect(r.duplicates).toBe(1);
    expect(r.marked.map((m) => [m.line, m.text])).toEqual([[1, 'DECISION: use Redis'], [2, 'BLOCKER: second'], [4, 'BLOCKER: second'], [5, 'end ISSUE-9']]);
    expect(missingMarkedLines(r.markdown, r.marked)).toEqual([]);
    expect(r.markdown).toContain('[same output as the Bash result at line 2 (occurrence 2)]\nBLOCKER: second');
  });
  it('a long test run keeps its summary and failing tests; source text that mentions errors is not an error line', () => {
    const run = [...lines(30, (i) => `compiling module ${i}`).split('\n'), ' ✓ src/a.test.ts (3 tests)', ' × src/b.test.ts > parses dates', ...lines(25, (i) => `  at frame ${i}`).split('\n'), ' Test Files  1 failed | 1 passed (2)', '      Tests  1 failed | 3 passed (4)'].join('\n');
    const kept = condense(run, 10).split('\n');
    expect(kept).toContain(' × src/b.test.ts > parses dates');
    expect(kept).toContain(' Test Files  1 failed | 1 passed (2)');
    expect(kept).toContain('      Tests  1 failed | 3 passed (4)');
    const source = lines(60, (i) => (i === 40 ? '  if (errors.length > 0) return handleError(errors);' : i === 45 ? "src/a.ts:12:5 - error TS2304: Cannot find name 'x'." : `code ${i}`));
    const out2 = condense(source, 10);
    expect(out2).not.toContain('handleError');
    expect(out2).toContain('error TS2304');
  });
  it('reports marked lines missing from a rendition', () => {
    const r = compactTranscript(transcript([say('user', 'TODO: one\nBUG-7 two', 1)]));
    expect(missingMarkedLines(r.markdown.replace('BUG-7 two', ''), r.marked)).toEqual([{ line: 1, text: 'BUG-7 two' }]);
  });
  it('uses a fence longer than any backtick run inside', () => {
    const r = compactTranscript(transcript([say('user', 'x', 1), out('```js\ncode\n```', 2)]));
    expect(r.markdown).toContain('````\n```js\ncode\n```\n````');
  });
  it('renders everything as it is with verbatim, for the before count', () => {
    const long = lines(70, (i) => `x${i}`);
    const r = compactTranscript(transcript([say('user', 'a', 1), out(long, 2), say('user', 'b', 3)]), { verbatim: true, header: ['# T'] });
    expect(r.condensed).toBe(0);
    expect(r.markdown).toBe(`# T\n\n### User (line 1)\n\na\n\n### Tool result: Bash (line 2)\n\n\`\`\`\n${long}\n\`\`\`\n\n### User (line 3)\n\nb\n`);
  });
  it('renders an empty transcript as just its header', () => {
    expect(compactTranscript(transcript([]), { header: ['# T'] }).markdown).toBe('# T\n');
  });
});
