import { describe, expect, it } from 'vitest';
import { parseMemoryText } from '../../../src/kernel/store/parse.js';
import { fileText, textWithin } from '../../../src/kernel/lint/text.js';

const texts = [
  'no frontmatter at all\n',
  '---\n---\nbody right after an empty block\n',
  '---\nname: a\n---\nbody\n',
  '---\nname: a\ndescription: b\n---\n\n\n\nbody after blank lines\n',
  '---\nname: é—…\ndescription: 日本語の説明\n---\n\n# Überschrift\n\nnon-ASCII body: ☃ 😀\n',
  '---\r\nname: crlf\r\n---\r\n\r\nbody\r\n',
  '\uFEFF---\nname: bom\n---\nbody\n',
];

describe('textWithin', () => {
  // Within means at most `limit` UTF-8 bytes: a token covers at least one byte.
  it('agrees with the byte length of fileText at every limit around it', () => {
    for (const text of texts) {
      const file = parseMemoryText('a.md', text, { mtimeMs: 0, size: text.length });
      const whole = fileText(file);
      const bytes = Buffer.byteLength(whole);
      for (let limit = Math.max(0, whole.length - 12); limit <= bytes + 12; limit++) {
        expect([text, limit, textWithin(file, limit)]).toEqual([text, limit, bytes <= limit]);
      }
    }
  });
});
