import { describe, expect, it } from 'vitest';
import { fieldBag, isFieldBag, visitWords, wordsKey, wordsKeyOf } from '../../../src/kernel/text/bm25.js';
import { fieldBags, relevance, type MatchableFile } from '../../../src/kernel/text/relevance.js';

const files: MatchableFile[] = [
  { path: 'auth/tokens.md', name: 'Auth tokens', description: 'Rotating tokens daily', tags: ['auth', 'security'], body: 'We rotate the auth token. Happy path: the token migrates.\nDoes the doe agree? agreed.' },
  { path: 'db.md', name: 'Database migration', description: 'How migrations run', tags: ['db'], body: 'Migrating the schema happily; aby abi happiness.' },
  { path: 'cjk.md', name: '認証 tokens', description: '', tags: [], body: 'トークン auth認証 token' },
  { path: 'empty.md', name: 'empty', description: '', tags: [], body: '' },
];

describe('field bags', () => {
  it('rank exactly as matching the text does', () => {
    const withBags = files.map((f) => ({ ...f, bags: fieldBags(f) }));
    for (const query of ['auth token migration', 'happy doe agreed', 'aby happi schema', '認証 token', 'rotating']) {
      const a = relevance(withBags, query);
      const b = relevance(files, query);
      expect([...a.scores]).toEqual([...b.scores]);
      expect([...a.coverage]).toEqual([...b.coverage]);
    }
  });

  it('match ASCII texts and others alike: case, digits, underscores and marks next to a word', () => {
    const texts = ['AUTH tokens_auth 2auth auth2 x-auth', 'Café AUTH tokens_auth 2auth auth2 x-auth', 'naïve Token-auth', 'TOKENS token'];
    const edge = texts.map((text, i) => ({ path: `e${i}.md`, name: text, description: text.toLowerCase(), tags: [text], body: text }));
    for (const query of ['auth', 'token auth', 'tokens_auth', 'café naïve']) {
      const a = relevance(edge.map((f) => ({ ...f, bags: fieldBags(f) })), query);
      const b = relevance(edge, query);
      expect([...b.scores]).toEqual([...a.scores]);
      expect([...b.matched]).toEqual([...a.matched]);
    }
    expect([...relevance(edge, 'auth').matched]).toEqual([1, 1, 1, 0]);
  });

  it('write a stem met once without its count, and still match a stem that begins another', () => {
    const bag = fieldBag('token tokens auth authentic authentic tok')!;
    expect(bag.stems).toBe(' token:2 auth authent:2 tok ');
    const prefixed = [{ path: 'a.md', name: 'a', description: '', tags: [], body: 'authentic authentic authorisation tok tokens' }, ...files];
    for (const query of ['auth', 'tok', 'authentic token', 'authorisation']) {
      expect([...relevance(prefixed.map((f) => ({ ...f, bags: fieldBags(f) })), query).scores]).toEqual([...relevance(prefixed, query).scores]);
    }
  });

  it('leave text with Chinese or Japanese characters to be matched from the text', () => {
    expect(fieldBag('トークン auth')).toBeUndefined();
    expect(fieldBag('Token tokens')).toEqual({ length: 12, stems: ' token:2 ', odd: [] });
  });

  it('are checked when read back', () => {
    expect(isFieldBag(fieldBag('happy days'))).toBe(true);
    expect(isFieldBag({ length: 1, stems: {}, odd: [] })).toBe(false);
    expect(isFieldBag({ length: 1, stems: ' a:1 ', odd: [['a', 'a', '1']] })).toBe(false);
  });
});

describe('visitWords', () => {
  it('hands on the words fieldBag counts, and returns the wordsKey of the text', () => {
    const texts = ['Token tokens token aby exy rea 42', 'Café\u0301 Über — x\u{1F600}y überauthentication neü', 'happy happiness happens', 'a', '', '认证 token'];
    for (const text of texts) {
      const stems: string[] = [];
      const odd: [string, string, number][] = [];
      const key = visitWords(text, { stem: (sid, count, all) => stems.push(count === 1 ? ` ${all[sid]}` : ` ${all[sid]}:${count}`), odd: (word, stem, count) => odd.push([word, stem, count]) });
      const bag = fieldBag(text);
      expect(key, text).toEqual(bag ? wordsKey(text) : null);
      if (!bag) continue;
      expect(`${stems.join('')} `).toBe(bag.stems);
      expect(odd).toEqual(bag.odd);
    }
  });
});

describe('wordsKey', () => {
  it("gives an ASCII text's key as wordsKeyOf its bag does, with every ASCII character before, inside and after words", () => {
    const wrong: string[] = [];
    for (let c = 1; c < 128; c++) {
      const ch = String.fromCharCode(c);
      const text = `${ch}Ab${ch}9z ${ch}${ch} q${ch}`;
      if (JSON.stringify(wordsKey(text)) !== JSON.stringify(wordsKeyOf(fieldBag(text)!))) wrong.push(JSON.stringify(text));
    }
    expect(wrong).toEqual([]);
    expect(wordsKey('Token tokens, TOKEN 42x')).toEqual(wordsKeyOf(fieldBag('Token tokens, TOKEN 42x')!));
    expect(wordsKey('Token tokens, TOKEN 42x')![1]).toBe(4);
  });
});

describe('counting an ASCII text in the shared buffers', () => {
  it('ends a word at the text, not at what a longer text left after it', () => {
    expect(fieldBag('zebras zebra '.repeat(6000))?.stems).toBe(' zebra:12000 ');
    expect(fieldBag('ze')?.stems).toBe(' ze ');
    expect(fieldBag('Zeb')?.stems).toBe(' zeb ');
  });

  it('counts a text exactly as long as the buffer it starts with', () => {
    const text = `${'ab '.repeat(21845)}x`;
    expect(text.length).toBe(1 << 16);
    expect(fieldBag(text)?.stems).toBe(' ab:21845 x ');
    expect(fieldBag(`${text}y`)?.stems).toBe(' ab:21845 xy ');
  });

  it('tells apart words of one length that end in the same eight characters, in any case', () => {
    expect(fieldBag('PREauthenticate preAuthenticate reauthenticate xreauthenticate')?.stems).toBe(' preauthent:2 reauthent xreauthent ');
    expect(fieldBag('abcdefgh Abcdefgh abcdefgH bbcdefgh abcdefghi')?.stems).toBe(' abcdefgh:3 bbcdefgh abcdefghi ');
  });

  it('counts words met before the table grew as the same words after', () => {
    const many = Array.from({ length: 70_000 }, (_, i) => `w${i.toString(36)}q`);
    expect(fieldBag(many.join(' '))?.stems.split(' ').length).toBe(70_002);
    expect(fieldBag('w0q W0Q wzzzq w2n9bq wnew')?.stems).toBe(' w0q:2 wzzzq w2n9bq wnew ');
  });
});
