import { describe, expect, it } from 'vitest';
import { BUILT_IN_TEMPLATE_TEXT, builtInTemplate, findPlaceholders, TemplateError, userTemplate } from '../../../src/kernel/summary/templates.js';
import { resolveFields } from '../../../src/kernel/summary/record.js';

const session = builtInTemplate('session');

describe('templates', () => {
  it('has the six session fields in order, each a heading', () => {
    expect(session.fields.map((f) => f.heading)).toEqual(['Goal', 'Progress', 'Decisions', 'Changed Files', 'Blockers', 'Next Steps']);
    expect(BUILT_IN_TEMPLATE_TEXT.session.split('\n').filter((l) => l.startsWith('## '))).toEqual(['## Goal', '## Progress', '## Decisions', '## Changed Files', '## Blockers', '## Next Steps']);
  });

  it('has the decision and notes fields', () => {
    expect(builtInTemplate('decision').fields.map((f) => f.heading)).toEqual(['Decision', 'Rationale', 'Alternatives Considered', 'Expected Impact', 'Validation Criteria', 'Context', 'Tags', 'Importance']);
    expect(builtInTemplate('notes').fields.map((f) => f.heading)).toEqual(['Current State', 'Files and Functions', 'Errors and Corrections', 'Key Results', 'Worklog']);
  });

  it('finds placeholders, block and inline, and refuses malformed ones with their line', () => {
    expect(findPlaceholders('# Review\n\n{{ goal }}\nOwner: {{owner_name}} \\{{literal}}\n')).toEqual([
      { key: 'goal', line: 3, block: true },
      { key: 'ownerName', line: 4, block: false },
    ]);
    expect(() => findPlaceholders('ok\n{{bad name}}\n')).toThrow(TemplateError);
    try {
      findPlaceholders('ok\n\nsee {{goal\n');
    } catch (err) {
      expect((err as TemplateError).line).toBe(3);
    }
  });

  it('user templates: known fields are reflected, others must be given', () => {
    const t = userTemplate('review', 'templates/review.md', '## Goal\n{{goal}}\n## Risk\n{{risk}}\n', {});
    expect([...t.reflected]).toEqual(['goal']);
    expect(resolveFields(t, { goal: ['G'] }).missing).toEqual(['risk']);
    expect(resolveFields(t, { goal: ['G'], risk: ['R'] }).missing).toEqual([]);
  });

  it('folds aliases and reports keys no field takes', () => {
    const decision = builtInTemplate('decision');
    const r = resolveFields(decision, { decisions: ['Use JWT'], changedFiles: ['a.ts'] }, (k) => [`src:${k}`]);
    expect(r.values.decision).toEqual(['Use JWT']);
    expect(r.unused).toEqual([{ key: 'changedFiles', sources: ['src:changedFiles'] }]);
  });
});
