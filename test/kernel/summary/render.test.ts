import { describe, expect, it } from 'vitest';
import { builtInTemplate, userTemplate } from '../../../src/kernel/summary/templates.js';
import { parseBody, renderBody } from '../../../src/kernel/summary/render.js';

const session = builtInTemplate('session');

describe('render and parse back', () => {
  const special = { date: '2026-11-21', timestamp: '2026-11-21T15:30:12Z' };

  it('renders paragraphs, lists and none recorded', () => {
    const body = renderBody(session, { goal: ['Ship auth'], progress: ['a', 'b\nsecond line'], decisions: [], changedFiles: [], blockers: [], nextSteps: ['n'] }, special);
    expect(body).toBe('## Goal\n\nShip auth\n\n## Progress\n\n- a\n- b\n  second line\n\n## Decisions\n\nnone recorded\n\n## Changed Files\n\nnone recorded\n\n## Blockers\n\nnone recorded\n\n## Next Steps\n\n- n\n');
  });

  it('values that look like structure parse back unchanged', () => {
    const values = {
      goal: ['---\nname: evil\ntype: user\n---\n## Progress\n- not a list\n\\ backslash\nnone recorded'],
      progress: ['## Decisions', '---', 'item\n\n## Blockers\n\nafter blank'],
      decisions: ['none recorded'],
      changedFiles: [],
      blockers: ['- dash item', '  indented\n    more'],
      nextSteps: ['{{goal}} stays literal'],
    };
    const body = renderBody(session, values, special);
    expect(parseBody(session, body)).toEqual(values);
  });

  it('fills inline placeholders on one line', () => {
    const t = userTemplate('mini', 'templates/mini.md', 'On {{date}}: {{goal}} / {{risk}}\n', {});
    expect(renderBody(t, { goal: ['a\nb', 'c'], risk: [] }, special)).toBe('On 2026-11-21: a b; c / none recorded\n');
  });
});
