import { describe, expect, it } from 'vitest';
import { addDistinct, condense, proseLines, statementKey, wholeStatement } from '../../../src/kernel/transcript/statement.js';

describe('proseLines', () => {
  it('drops the lines of fenced code, fences included', () => {
    expect(proseLines('intro\n```ts\nconst x = 1;\n```\noutro')).toEqual(['intro', 'outro']);
  });
});

describe('condense', () => {
  it('collapses whitespace, drops leading Markdown, bold and a final colon', () => {
    expect(condense('## **Decision**:\n  use   JWT')).toBe('Decision: use JWT');
    expect(condense('- 1. Next steps:')).toBe('Next steps');
  });

  it('keeps the first sentence when it is longer than 20 characters and not the whole text', () => {
    expect(condense('We moved sessions to JWT tokens. Then we tested it.')).toBe('We moved sessions to JWT tokens.');
    expect(condense('Short one. Then more text.')).toBe('Short one. Then more text.');
  });

  it('cuts a long statement at a space near the limit, with an ellipsis', () => {
    const long = `${'word '.repeat(60)}end`;
    expect(condense(long, 50)).toBe(`${'word '.repeat(9)}word…`);
    expect(condense('x'.repeat(80), 50)).toBe(`${'x'.repeat(49)}…`);
  });
});

describe('wholeStatement', () => {
  it('keeps a statement within the limit whole, markup dropped', () => {
    expect(wholeStatement('* **Use** JWT. Then test.')).toBe('Use JWT. Then test.');
  });

  it('falls back to a first sentence of 25 characters up to the limit, else nothing', () => {
    expect(wholeStatement(`Sessions move to JWT tokens now. ${'x'.repeat(300)}`)).toBe('Sessions move to JWT tokens now.');
    expect(wholeStatement(`Too short. ${'x'.repeat(300)}`)).toBeUndefined();
    expect(wholeStatement('y'.repeat(300))).toBeUndefined();
  });
});

describe('statementKey and addDistinct', () => {
  it('keys a statement by its lower-case words, a marker prefix dropped', () => {
    expect(statementKey('DECISION: Use JWT!')).toBe('use jwt');
    expect(statementKey('Next steps: ship it')).toBe('ship it');
    expect(statementKey('TODO - x')).toBe('todo x');
  });

  it('adds items whose key is new and neither holds nor is held by a kept key over 30 characters', () => {
    const kept = ['Decision: use JWT for sessions in the backend'];
    const out = addDistinct(kept, ['use jwt', 'USE JWT FOR SESSIONS IN THE BACKEND.', 'we will use JWT for sessions in the backend today', 'cookies stay', '', 'Cookies stay!']);
    expect(out).toBe(kept);
    expect(out).toEqual(['Decision: use JWT for sessions in the backend', 'use jwt', 'cookies stay']);
  });

  it('stops at max items in all', () => {
    expect(addDistinct(['a'], ['b', 'c', 'd'], 2)).toEqual(['a', 'b']);
  });
});
