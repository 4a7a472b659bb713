// transcript/tasks.ts: an agent's task list through a session (compaction.test.ts reads it from real transcripts).
import { describe, expect, it } from 'vitest';
import { claudeTaskEvent, planItems, TaskLog } from '../../../src/kernel/transcript/tasks.js';

const call = (toolName: string, toolInput: unknown) => ({ kind: 'tool_call' as const, role: 'assistant' as const, toolName, toolInput, text: '', line: 1 });

describe('planItems', () => {
  it('reads each status spelling, takes the first text key present, skips malformed entries', () => {
    const list = [
      { content: 'Write the parser', status: 'Done' },
      { content: '  ', activeForm: 'Running the tests', status: 'in-progress' },
      { content: 'Ship', status: 'not started' },
      { content: 'Wait on review', status: 'BLOCKED' },
      { content: 'No status' },
      { content: 'Odd status', status: 'maybe' },
      'a string',
      null,
    ];
    expect(planItems(list, ['content', 'activeForm'])).toEqual([
      { text: 'Write the parser', status: 'completed' },
      { text: 'Running the tests', status: 'in_progress' },
      { text: 'Ship', status: 'pending' },
      { text: 'Wait on review', status: 'blocked' },
    ]);
    expect(planItems({ todos: [] }, ['content'])).toEqual([]);
  });
});

describe('TaskLog', () => {
  it('a new list replaces the old one; what was completed stays, once, with the call that completed it', () => {
    const log = new TaskLog();
    expect(log.empty).toBe(true);
    log.apply({ list: [{ text: 'a', status: 'completed' }, { text: 'b', status: 'pending' }] }, 3);
    log.apply({ list: [{ text: 'a', status: 'completed' }, { text: 'c', status: 'in_progress' }] }, 5);
    expect([log.empty, log.lastIndex, log.current(), log.completed]).toEqual([false, 5, [{ text: 'a', status: 'completed' }, { text: 'c', status: 'in_progress' }], [{ text: 'a', index: 3 }]]);
  });

  it('single tasks: created pending, numbered from 1, updated, completed, deleted; an unknown id changes nothing', () => {
    const log = new TaskLog();
    log.apply({ create: 'Add the route' }, 0);
    log.apply({ create: 'Write docs' }, 1);
    log.apply({ update: '1', status: 'in_progress', text: 'Add the /health route' }, 2);
    log.apply({ update: '2', status: 'completed' }, 3);
    log.apply({ update: '9', status: 'completed' }, 4);
    expect(log.current()).toEqual([{ text: 'Add the /health route', status: 'in_progress' }, { text: 'Write docs', status: 'completed' }]);
    log.apply({ delete: '1' }, 5);
    expect([log.current(), log.completed, log.lastIndex]).toEqual([[{ text: 'Write docs', status: 'completed' }], [{ text: 'Write docs', index: 3 }], 5]);
  });
});

describe('claudeTaskEvent', () => {
  it("reads TodoWrite, TaskCreate and TaskUpdate (a deletion included); nothing from other tools or bad input", () => {
    expect(claudeTaskEvent(call('TodoWrite', { todos: [{ content: 'x', status: 'pending' }] }))).toEqual({ list: [{ text: 'x', status: 'pending' }] });
    expect(claudeTaskEvent(call('TaskCreate', { subject: 'Fix login' }))).toEqual({ create: 'Fix login' });
    expect(claudeTaskEvent(call('TaskUpdate', { taskId: 2, status: 'completed' }))).toEqual({ update: '2', status: 'completed', text: undefined });
    expect(claudeTaskEvent(call('TaskUpdate', { taskId: '3', subject: 'Renamed' }))).toEqual({ update: '3', status: undefined, text: 'Renamed' });
    expect(claudeTaskEvent(call('TaskUpdate', { taskId: '3', status: 'deleted' }))).toEqual({ delete: '3' });
    expect([call('TaskCreate', { title: 'x' }), call('TaskUpdate', { status: 'completed' }), call('Bash', { command: 'ls' }), call('TodoWrite', 'text')].map(claudeTaskEvent)).toEqual([undefined, undefined, undefined, undefined]);
  });
});
