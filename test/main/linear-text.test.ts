import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { runMemctx } from '../helpers/run.js';
import { markdownLinks, memoryLinks } from '../../src/kernel/markdown/links.js';
import { mentionedPaths } from '../../src/kernel/lint/rules/content/broken-reference.js';
import { markedLines } from '../../src/commands/flush/extract.js';
import { ERROR_LINE, TEST_SUMMARY, isConfirmation, markedLinesOf, normalizeOutput } from '../../src/kernel/capacity/compact.js';
import { summarySections } from '../../src/kernel/transcript/extract.js';
import { escapeHtmlStart, inlineMarkdown, singleLine, terminalSafe } from '../../src/kernel/markdown/escape.js';
import { splitIndex } from '../../src/kernel/memindex/merge.js';

const MB = 1_000_000;
const fill = (unit: string, tail = '') => unit.repeat(Math.floor((MB - tail.length) / unit.length)) + tail;

/** 1 MB inputs built to make a backtracking regex quadratic: runs of brackets, link openers, backticks, `<`, dots, paths. */
const ADVERSARIAL: Record<string, string> = {
  brackets: fill('[', '](x.md)'),
  openers: fill(']('),
  linkStarts: fill('[a]('),
  emptyLinks: fill('[]('),
  wiki: fill('[[', ']]'),
  wikiHash: fill('[[a#'),
  backticks: fill('`'),
  angles: fill('<'),
  dots: fill('a.', '://x'),
  punctuation: fill('.', 'x/y'),
  paths: Array.from({ length: 60_000 }, (_, i) => `d${i}/f.ts`).join(' '),
  colons: fill(':1'),
  quotes: fill('](x "'),
  amps: `&${fill('amp;')}`,
  spaces: fill(' ', 'x'),
  words: fill('A'),
  hex: fill('f'),
  colonDigits: fill(':1 '),
};

const TEXT_FUNCTIONS: Record<string, (text: string) => unknown> = {
  memoryLinks: (t) => memoryLinks('a.md', t, 1),
  markdownLinks: (t) => markdownLinks(t),
  mentionedPaths: (t) => mentionedPaths(t),
  markedLines: (t) => markedLines(t),
  markedLinesOf: (t) => markedLinesOf(t),
  isConfirmation: (t) => isConfirmation(t),
  normalizeOutput: (t) => normalizeOutput(t),
  errorLine: (t) => ERROR_LINE.test(t),
  testSummary: (t) => TEST_SUMMARY.test(t),
  summarySections: (t) => summarySections(t),
  inlineMarkdown: (t) => inlineMarkdown(t),
  escapeHtmlStart: (t) => escapeHtmlStart(t),
  singleLine: (t) => singleLine(t),
  terminalSafe: (t) => terminalSafe(t),
  splitIndex: (t) => {
    try {
      return splitIndex(t);
    } catch {
      return undefined;
    }
  },
};

describe('every regex that sees user text is linear', () => {
  // A quadratic pattern takes minutes on 1 MB, past the test's timeout; a linear one well under a
  // second (bench/hardening.bench.ts times pack and lint on such a file).
  it.each(Object.keys(TEXT_FUNCTIONS))('%s on each 1 MB adversarial input', (name) => {
    const fn = TEXT_FUNCTIONS[name];
    for (const text of Object.values(ADVERSARIAL)) {
      fn(text);
    }
  });

  describe('on a 1 MB adversarial memory file', () => {
    // One memory folder for both commands (removed after the file), one test each: neither nears its timeout on a loaded machine.
    let cwd = '';
    beforeAll(() => {
      cwd = tempDir();
      const root = join(cwd, '.memory');
      mkdirSync(root);
      writeFileSync(join(root, 'MEMORY.md'), '# Memory\n');
      const quarter = MB / 4;
      const body = ['[', '](', '`', '<'].map((unit) => `${unit.repeat(quarter / unit.length - 8)}](x.md)\n`).join('');
      writeFileSync(join(root, 'adv.md'), `---\nname: Adv\ndescription: adversarial\ntype: project\n---\n${body}`);
    });
    it.each([['pack', '--budget', '2000'], ['lint']].map((args) => [args[0], args] as const))('%s finishes', async (_, args) => {
      const result = await runMemctx([...args], { cwd });
      expect(result.stderr).not.toContain('unexpected failure');
    }, 60_000);
  });
});
