import { describe, expect, it } from 'vitest';
import { cutText, isDialogue, isTurnOrItem, speakerOf, splitPassages } from '../../../src/kernel/text/passages.js';

const FILE = [
  '---', 'name: x', 'description: y', '---', '', // 1-5
  '# Title', '', 'Intro paragraph, line one', 'and line two', '', // 6-10
  '## Section', '', // 11-12
  '- the first item is long enough to stand on its own here', // 13
  '- second', // 14
  '- the third item is also long enough to stand on its own', '', // 15-16
  '**user:** I have two dogs named Rex and Fido, and one cat called Tom.', '', // 17-18
  '**assistant:** That is lovely! Dogs are great companions for many people.', '', // 19-20
  '```js', 'const a = 1;', '', 'const b = 2;', '```', // 21-25
].join('\n');

describe('splitPassages', () => {
  it('splits on headings, list items, dialogue turns and blank lines, numbering lines as in the file', () => {
    const passages = splitPassages(`${FILE}\n`);
    expect(passages.map((p) => [p.start, p.end])).toEqual([[6, 9], [11, 13], [14, 15], [17, 17], [19, 19], [21, 25]]);
    // A short unit joins the next (a heading its paragraph, item two item three); a fence stays whole across its blank line.
    expect(passages[2].text).toBe('- second\n- the third item is also long enough to stand on its own');
    expect(passages[5].text).toBe('```js\nconst a = 1;\n\nconst b = 2;\n```');
    const lines = FILE.split('\n');
    for (const p of passages) expect(p.text).toBe(lines.slice(p.start - 1, p.end).join('\n'));
  });

  it('cuts a file that is one 200 KB line by sentence, every piece within the limit and found in the file', () => {
    const line = 'Word and more words here, said the log. '.repeat(5000).trim();
    const passages = splitPassages(`${line}\n`, { maxChars: 1500 });
    expect(passages.length).toBeGreaterThan(130);
    for (const p of passages) {
      expect(p.text.length).toBeLessThanOrEqual(1500);
      expect(p.start).toBe(1);
      expect(line.includes(p.text)).toBe(true);
      expect(p.text.endsWith('.')).toBe(true);
    }
    expect(passages.map((p) => p.text).join(' ')).toBe(line);
  });

  it('cuts a line with no spaces or sentence ends by size', () => {
    const pieces = cutText('x'.repeat(4000), 1500);
    expect(pieces.map((p) => p.length)).toEqual([1500, 1500, 1000]);
  });

  it('handles 10,000 headings (short ones join up to the size limit)', () => {
    const text = Array.from({ length: 10_000 }, (_, i) => `# heading number ${i}`).join('\n');
    const passages = splitPassages(text);
    expect(passages).toHaveLength(10_000);
    expect(passages[9_999]).toEqual({ start: 10_000, end: 10_000, text: '# heading number 9999' });
    const long = Array.from({ length: 10_000 }, (_, i) => `# heading ${i} with a title long enough to stand alone, really`).join('\n');
    expect(splitPassages(long)).toHaveLength(10_000);
  });

  it('keeps text in other scripts and CRLF files whole', () => {
    const passages = splitPassages('# 東京\r\n\r\n東京の天気は晴れです。明日も晴れるでしょう。とても長い文になります。\r\n');
    expect(passages).toEqual([{ start: 1, end: 3, text: '# 東京\n\n東京の天気は晴れです。明日も晴れるでしょう。とても長い文になります。' }]);
  });
});

describe('isTurnOrItem', () => {
  it('tells dialogue turns and list items from other passages', () => {
    expect(['**user:** hi there', '**Alice**: hello', 'Bob: fine', '- an item', '12. a numbered item'].map(isTurnOrItem)).toEqual([true, true, true, true, true]);
    expect(['# Heading', 'A plain paragraph, with no speaker.', '```js', 'lowercase: not a speaker'].map(isTurnOrItem)).toEqual([false, false, false, false]);
  });
});

describe('speakerOf', () => {
  it('names the bold speaker of a transcript turn, and nothing for other lines', () => {
    expect(['**user:** hi', '**Alice**: hello there', '**Dr. Smith:** yes'].map(speakerOf)).toEqual(['user', 'Alice', 'Dr. Smith']);
    expect(['Bob: plain', '- item', '**bold** text', '# Heading'].map(speakerOf)).toEqual([undefined, undefined, undefined, undefined]);
  });
});

describe('isDialogue', () => {
  const piece = (text: string) => ({ start: 1, end: 1, text });
  it('is a transcript when most passages are turns and its speakers speak again', () => {
    expect(isDialogue(['**Ann:** hi', '**Bob:** hello', '**Ann:** how are you', '**Bob:** fine', '# Notes'].map(piece))).toBe(true);
  });
  it('is not when each bold label comes once, when turns are few, or when most passages are not turns', () => {
    expect(isDialogue(['**Status:** open', '**Context:** auth', '**Owner:** Ann', '**Due:** May'].map(piece))).toBe(false);
    expect(isDialogue(['**Ann:** hi', '**Bob:** hello', '**Ann:** bye'].map(piece))).toBe(false);
    expect(isDialogue(['**Ann:** hi', '**Bob:** hello', '**Ann:** a', '**Bob:** b', '- x', '- y', '- z', '- w', '- v'].map(piece))).toBe(false);
  });
});
