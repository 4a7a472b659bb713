import { describe, expect, it } from 'vitest';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { parseMemoryText } from '../../../src/kernel/store/parse.js';
import { loadTokenCounter } from '../../../src/kernel/tokens/index.js';
import { mergeSources, normalizeKey } from '../../../src/kernel/summary/fields.js';
import { detectFormat, FlushInputError, parseFieldsText } from '../../../src/commands/flush/input.js';
import { BUILT_IN_TEMPLATE_TEXT, builtInTemplate, findPlaceholders, TemplateError, userTemplate } from '../../../src/kernel/summary/templates.js';
import { summarizeBlock } from '../../../src/kernel/summary/blocks.js';
import { parseBody, renderBody } from '../../../src/kernel/summary/render.js';
import { shortenToFit } from '../../../src/kernel/summary/shorten.js';
import { groupChangedLines } from '../../../src/kernel/summary/changed.js';
import { planFlush, plannedPath, resolveFields, slugify, fileStamp } from '../../../src/kernel/summary/record.js';
import { parseHookInput, HookInputError } from '../../../src/kernel/summary/hook-input.js';

const NOW = new Date('2026-11-21T15:30:12.345Z');
const session = builtInTemplate('session');

describe('fields', () => {
  it('normalizes snake, kebab and spaced keys to camelCase', () => {
    expect(['changed_files', 'changed-files', 'Changed Files', 'nextSteps', 'next_steps'].map(normalizeKey)).toEqual(['changedFiles', 'changedFiles', 'changedFiles', 'nextSteps', 'nextSteps']);
  });

  it('merges sources in order, dropping empty items and exact repeats', () => {
    const merged = mergeSources([
      { label: 'a', values: { goal: ['G'], progress: ['one', ' two '] } },
      { label: 'b', values: { progress: ['two', 'three', ''], blockers: [] } },
    ]);
    expect(merged).toEqual({ goal: ['G'], progress: ['one', 'two', 'three'] });
  });
});

describe('--from parsing', () => {
  it('reads YAML strings, numbers and lists under normalized keys', () => {
    const parsed = parseFieldsText('goal: Ship auth\nchanged_files:\n  - src/a.ts\n  - 42\nnext-steps: Review\n', 'yaml');
    expect(parsed.values).toEqual({ goal: ['Ship auth'], changedFiles: ['src/a.ts', '42'], nextSteps: ['Review'] });
    expect(parsed.keys.map((k) => [k.key, k.line])).toEqual([['goal', 1], ['changed_files', 2], ['next-steps', 5]]);
  });

  it('reads JSON', () => {
    expect(parseFieldsText('{"goal": "G", "decisions": ["a", "b"]}', 'json').values).toEqual({ goal: ['G'], decisions: ['a', 'b'] });
  });

  it('detects the format from the name, else from the first character', () => {
    expect([detectFormat('x.json', 'goal: x'), detectFormat('x.yml', '{}'), detectFormat(undefined, '  {"a":1}'), detectFormat(undefined, 'goal: x')]).toEqual(['json', 'yaml', 'json', 'yaml']);
  });

  const failure = (text: string, format: 'json' | 'yaml') => {
    try {
      parseFieldsText(text, format);
    } catch (err) {
      expect(err).toBeInstanceOf(FlushInputError);
      return { message: (err as FlushInputError).message, line: (err as FlushInputError).line };
    }
    throw new Error('no error');
  };

  it('names the line of malformed JSON, including a trailing comma YAML would accept', () => {
    expect(failure('{\n  "goal": "x",\n  "progress": [1, 2,]\n}\n', 'json')).toEqual({ message: "invalid JSON: Unexpected token ']'", line: 3 });
    expect(failure('{\n"goal": x\n}', 'json').line).toBe(2);
    expect(failure('{\n  "goal": "x"\n', 'json').line).toBe(3);
  });

  it('names the line of malformed YAML', () => {
    expect(failure('goal: x\nprogress: [a\nnext: b\n', 'yaml').line).toBe(3);
    expect(failure('goal: x\ngoal: y\n', 'yaml').message).toMatch(/unique/);
  });

  it('refuses a document that is not a mapping, and nested values, with their line', () => {
    expect(failure('- a\n- b\n', 'yaml')).toEqual({ message: 'the document must be a mapping of field names to values', line: 1 });
    expect(failure('goal: x\nprogress:\n  nested: 1\n', 'yaml')).toEqual({ message: '`progress` must be a string or a list of strings', line: 3 });
  });
});

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

describe('50-line rule', () => {
  it('keeps blocks of up to 50 lines as they are', () => {
    const text = Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join('\n');
    expect(summarizeBlock(text)).toEqual({ text, total: 50, omitted: 0 });
  });

  it('stores a longer block as its first lines, its error lines and a count', () => {
    const lines = Array.from({ length: 100 }, (_, i) => `ok ${i + 1}`);
    lines[46] = 'Error: SQLite migration failed at step 3/7.';
    lines[80] = 'FAIL test/auth.test.ts';
    const block = summarizeBlock(lines.join('\n'));
    expect(block.omitted).toBe(88);
    expect(block.text.split('\n')).toEqual([
      ...lines.slice(0, 10),
      '[error lines from the remaining 90:]',
      'Error: SQLite migration failed at step 3/7.',
      'FAIL test/auth.test.ts',
      '[… 88 of 100 lines left out]',
    ]);
  });
});

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

describe('shortening', () => {
  const measure = (v: Record<string, string[]>) => Object.values(v).flat().join('\n').length;

  it('does nothing when it fits', () => {
    const r = shortenToFit({ a: ['x', 'y'] }, ['a'], measure, 100);
    expect(r).toEqual({ values: { a: ['x', 'y'] }, tokens: 3, cuts: [], fits: true });
  });

  it('takes items off the first field in cut order, keeping the most that fit', () => {
    const values = { keep: ['k'.repeat(20)], cut: Array.from({ length: 10 }, (_, i) => `item-${i}`) };
    const r = shortenToFit(values, ['cut', 'keep'], measure, 60);
    expect(r.values.keep).toEqual(values.keep);
    expect(r.values.cut).toEqual(['item-0', 'item-1', '[… 8 more left out]']);
    expect(r.cuts).toEqual([{ field: 'cut', what: 'items', kept: 2, total: 10 }]);
    expect(r.tokens).toBeLessThanOrEqual(60);
  });

  it('long lines first to 100 characters, then lines, then characters, and is deterministic', () => {
    const values = { a: [`${'word '.repeat(40)}\nline2\nline3\nline4`] };
    const r1 = shortenToFit(values, ['a'], measure, 80);
    const r2 = shortenToFit(values, ['a'], measure, 80);
    expect(r1).toEqual(r2);
    expect(r1.cuts.map((c) => c.what)).toEqual(['characters', 'lines', 'characters']);
    expect(r1.cuts[0]).toMatchObject({ field: 'a', what: 'characters', kept: 100 });
    expect(r1.fits).toBe(true);
    expect(r1.values.a[0].split('\n')[0].endsWith('…')).toBe(true);
  });
});

describe('planFlush', () => {
  it('counts the file exactly (o200k_base, checked against gpt-tokenizer)', async () => {
    const counter = await loadTokenCounter();
    const plan = planFlush({ template: session, values: { goal: ['Move auth sessions to JWT <|endoftext|>'], progress: ['done'], decisions: [], changedFiles: [], blockers: [], nextSteps: [] }, now: NOW, counter });
    expect(plan.tokens).toBe(countTokens(plan.text, { disallowedSpecial: new Set() }));
    expect(plan.tokens).toBe(plan.originalTokens);
    expect(plan.empty).toEqual(['Decisions', 'Changed Files', 'Blockers', 'Next Steps']);
    const file = parseMemoryText('sessions/x.md', plan.text, { mtimeMs: 0, size: 0 });
    expect(file.data).toEqual({ name: 'Session 2026-11-21 15:30', description: 'Move auth sessions to JWT <|endoftext|>', type: 'project', kind: 'session', created: '2026-11-21T15:30:12Z', updated: '2026-11-21T15:30:12Z' });
    expect(plannedPath(plan)).toBe('sessions/2026-11-21T153012-move-auth-sessions-to-jwt-endoftext.md');
  });

  it('over the maximum groups changed files by folder before any item is dropped; strict keeps everything', async () => {
    const counter = await loadTokenCounter();
    const files = Array.from({ length: 80 }, (_, i) => `src/module${i}/file${i}.ts — handler number ${i} (start${i}, stop${i})`);
    const values = { goal: ['Big session'], progress: ['p1', 'p2'], decisions: ['Use JWT because keys rotate'], changedFiles: files, blockers: [], nextSteps: ['n'] };
    const plan = planFlush({ template: session, values, now: NOW, counter });
    expect(plan.originalTokens).toBeGreaterThan(650);
    expect(plan.tokens).toBeLessThanOrEqual(500);
    expect(plan.tokens).toBe(counter.count(plan.text));
    // every file still covered, every other item kept
    expect(plan.cuts).toEqual([{ field: 'changedFiles', what: 'grouped', kept: 1, total: 80 }]);
    expect(plan.values.changedFiles).toEqual(['src/ (80 files)']);
    expect(plan.values.progress).toEqual(['p1', 'p2']);
    expect(plan.values.decisions).toEqual(values.decisions);
    expect(plan.cutLines).toEqual(['Changed Files: grouped by folder into 1 line (80 before)']);
    // The lesser grouping (the files without their summaries) would not have fitted the target.
    const lesser = planFlush({ template: session, values: { ...values, changedFiles: groupChangedLines(files, 2) }, now: NOW, counter, max: 10_000 });
    expect(lesser.tokens).toBeGreaterThan(500);
    const strict = planFlush({ template: session, values, now: NOW, counter, strict: true });
    expect(strict.overMax).toBe(true);
    expect(strict.cuts).toEqual([]);
    expect(strict.values.changedFiles).toEqual(files);
  });

  it('applies the 50-line rule before counting', async () => {
    const counter = await loadTokenCounter();
    const log = Array.from({ length: 120 }, (_, i) => (i === 70 ? 'npm ERR! code ELIFECYCLE' : `step ${i}`)).join('\n');
    const plan = planFlush({ template: session, values: { goal: ['g'], progress: [log] }, now: NOW, counter });
    expect(plan.summarized).toEqual([{ field: 'progress', total: 120, omitted: 109 }]);
    expect(plan.text).toContain('  npm ERR! code ELIFECYCLE\n  [… 109 of 120 lines left out]');
  });

  it('decision records carry the ID, importance and tags', async () => {
    const counter = await loadTokenCounter();
    const decision = builtInTemplate('decision');
    const values = resolveFields(decision, { decision: ['Use RS256'], rationale: ['Keys rotate'], tags: ['auth, security'], importance: ['8'] }).values;
    const plan = planFlush({ template: decision, values, now: NOW, counter, id: 'DEC-2026-11-21-004' });
    const file = parseMemoryText('decisions/x.md', plan.text, { mtimeMs: 0, size: 0 });
    expect(file.data).toMatchObject({ name: 'DEC-2026-11-21-004', description: 'Use RS256', kind: 'decision', id: 'DEC-2026-11-21-004', importance: 8, tags: ['auth', 'security'] });
    expect(file.body.startsWith('\n**ID:** DEC-2026-11-21-004\n\n## Decision\n\nUse RS256\n')).toBe(true);
    expect(plannedPath(plan, 'DEC-2026-11-21-004')).toBe('decisions/DEC-2026-11-21-004-use-rs256.md');
  });

  it('slugs and stamps', () => {
    expect(slugify('Crème brûlée: fix the über-parser!', 'session')).toBe('creme-brulee-fix-the-uber-parser');
    expect(slugify('日本語', 'session')).toBe('session');
    expect(slugify('a'.repeat(80), 'x')).toHaveLength(48);
    expect(fileStamp(NOW)).toBe('2026-11-21T153012');
  });
});

describe('hook input', () => {
  it('reads SessionEnd and PreCompact JSON', () => {
    expect(parseHookInput('{"session_id":"abc","transcript_path":"/t.jsonl","cwd":"/p","hook_event_name":"SessionEnd","reason":"clear"}')).toEqual({ sessionId: 'abc', transcriptPath: '/t.jsonl', cwd: '/p', event: 'SessionEnd', reason: 'clear' });
    expect(parseHookInput('{"session_id":"abc","hook_event_name":"PreCompact","trigger":"auto"}')).toEqual({ sessionId: 'abc', transcriptPath: undefined, cwd: undefined, event: 'PreCompact', reason: 'auto' });
  });

  it('refuses garbage, empty input, non-objects and wrong types', () => {
    for (const bad of ['garbage{', '', '[1]', '{"cwd": 3}']) expect(() => parseHookInput(bad)).toThrow(HookInputError);
  });
});
