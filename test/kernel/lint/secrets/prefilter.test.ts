import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findSecrets, MAYBE_SECRET_PATTERNS, MAYBE_SECRET_STARTS, maybeSecret, secretWarnings } from '../../../../src/kernel/lint/secrets.js';

const DIR = join(import.meta.dirname, '../../../../fixtures/secretlint');
const inputs = readdirSync(DIR)
  .filter((f) => f !== 'SOURCES.md')
  .map((f) => ({ path: f, text: readFileSync(join(DIR, f), 'utf8') }));

describe('the secret pre-check (secretlint is loaded only when it passes)', () => {
  it('passes every secretlint test input that secretlint reports on', async () => {
    expect(inputs.length).toBe(50);
    const reported = new Set((await findSecrets(inputs)).map((hit) => hit.path));
    expect(reported.size).toBe(inputs.length);
    expect(inputs.filter((input) => !maybeSecret(input.text)).map((input) => input.path)).toEqual([]);
  });

  it('lets ordinary prose through without loading secretlint', async () => {
    const prose = 'We keep the client secret in the vault; the account owner rotates it. Next: the auth token migration.';
    expect(maybeSecret(prose)).toBe(false);
    expect(await secretWarnings([{ path: 'notes.md', text: prose }])).toEqual([]);
  });

  it('still warns on an AWS account id, a Slack app token and a Vercel token', async () => {
    for (const name of ['aws__ng.AWS_Account_ID.txt', 'slack__ng.xapp-token.txt', 'vercel__ng.secret.txt']) {
      const input = inputs.find((i) => i.path === name)!;
      expect((await secretWarnings([input])).length, name).toBeGreaterThan(0);
    }
  });

  it('passes the Stripe shapes our own pattern reports, test keys included', async () => {
    const key = ['sk', '_test_', '4eC39HqLyjWDarjtT1zdp7dc'].join('');
    expect(maybeSecret(`billing uses ${key}`)).toBe(true);
    expect((await secretWarnings([{ path: 'billing.md', text: `billing uses ${key}\n` }])).length).toBe(1);
  });
});

/** A pattern's atom: a set of characters (lower case), or alternatives of sequences. */
type Atom = string[] | Item[][];
interface Item {
  atom: Atom;
  min: number;
  max: number;
}

const WHITESPACE = [' ', '\t', '\n', '\r', '\v', '\f'];
const ASCII = Array.from({ length: 128 }, (_, c) => String.fromCharCode(c).toLowerCase());

/** The alternatives of a regular expression's source (literals, escapes, classes, (?:) groups and quantifiers: what MAYBE_SECRET uses). */
function parsePattern(source: string): Item[][] {
  let at = 0;
  const escaped = (): string[] => {
    const c = source[at++];
    return c === 's' ? WHITESPACE : [c.toLowerCase()];
  };
  const charClass = (): string[] => {
    const negated = source[at] === '^';
    if (negated) at++;
    const chars = new Set<string>();
    while (source[at] !== ']') {
      const from = source[at] === '\\' ? (at++, escaped()) : [source[at++].toLowerCase()];
      if (source[at] === '-' && source[at + 1] !== ']') {
        const to = source[at + 1].toLowerCase();
        at += 2;
        for (let c = from[0].charCodeAt(0); c <= to.charCodeAt(0); c++) chars.add(String.fromCharCode(c));
      } else from.forEach((c) => chars.add(c));
    }
    at++;
    return negated ? ASCII.filter((c) => !chars.has(c)) : [...chars];
  };
  const atom = (): Atom => {
    const c = source[at++];
    if (c === '(') {
      expect(source.slice(at, at + 2)).toBe('?:');
      at += 2;
      const inner = alternatives();
      at++;
      return inner;
    }
    if (c === '[') return charClass();
    if (c === '\\') return escaped();
    expect('.^$'.includes(c), `unsupported ${c}`).toBe(false);
    return [c.toLowerCase()];
  };
  const quantified = (a: Atom): Item => {
    const c = source[at];
    if (c === '?' || c === '*' || c === '+') {
      at++;
      return { atom: a, min: c === '+' ? 1 : 0, max: c === '?' ? 1 : Infinity };
    }
    const range = /^\{(\d+),(\d+)\}/.exec(source.slice(at));
    if (!range) return { atom: a, min: 1, max: 1 };
    at += range[0].length;
    return { atom: a, min: Number(range[1]), max: Number(range[2]) };
  };
  const alternatives = (): Item[][] => {
    const all: Item[][] = [[]];
    while (at < source.length && source[at] !== ')') {
      if (source[at] === '|') {
        at++;
        all.push([]);
      } else all[all.length - 1].push(quantified(atom()));
    }
    return all;
  };
  return alternatives();
}

/** Every string of up to three characters a match of the pattern can start with (shorter: a whole match). */
function firstThree(source: string): Set<string> {
  const out = new Set<string>();
  const walk = (items: Item[], i: number, prefix: string, done: (p: string) => void): void => {
    if (prefix.length >= 3 || i === items.length) return done(prefix);
    const { atom, min, max } = items[i];
    const repeat = (k: number, p: string): void => {
      if (k >= min) walk(items, i + 1, p, done);
      if (k < max && p.length < 3) step(atom, p, (q) => repeat(k + 1, q));
    };
    repeat(0, prefix);
  };
  const step = (atom: Atom, p: string, next: (q: string) => void): void => {
    for (const option of atom) {
      if (typeof option === 'string') next(p + option);
      else walk(option, 0, p, next);
    }
  };
  for (const alternative of parsePattern(source)) walk(alternative, 0, '', (p) => out.add(p.slice(0, 3)));
  return out;
}

describe('the secret pre-check, tried only where a match can start', () => {
  const [pattern, assigned] = MAYBE_SECRET_PATTERNS;
  const slow = (text: string) => pattern.test(text) || assigned.test(text);

  it('lists exactly the three characters every alternative of the pattern starts with', () => {
    expect([...firstThree(pattern.source)].sort()).toEqual([...MAYBE_SECRET_STARTS].sort());
    expect([...firstThree('ab|c(?:d|ef)?[gH]_?x')].sort()).toEqual(['ab', 'cdg', 'cdh', 'cef', 'cg_', 'cgx', 'ch_', 'chx']);
    expect(firstThree(String.raw`:\/[^\s\/a-z]{1,2}`)).toEqual(new Set(ASCII.filter((c) => !/[\s/a-z]/.test(c)).map((c) => `:/${c}`)));
  });

  it('matches ASCII letters only in their two cases, as the case-insensitive pattern does', () => {
    const letters = Array.from({ length: 65536 }, (_, c) => c).filter((c) => /[a-z]/i.test(String.fromCharCode(c)));
    expect(letters.length).toBe(52);
    expect(maybeSecret('\u212Akia \u017Fk-x \u0130zA')).toBe(false);
  });

  it('answers as the patterns do, at the start, middle and end of texts in any case', () => {
    const pieces = ['AKIA', 'a3T', 'account_ID" =', 'accountx=', 'Sk-', 'sk_LIVE', 'SG.', 'ghp_', 'GITHUB_PAT_', 'glsa_', 'xoxb-', 'xox-', 'hooks.slack.com', 'hooks.slack', 'ya29.', '-----BEGIN', '----begin', 'eyJ', 'https://u:p@h', 'https://u@h', 'dapi', 'lin_api_', 'vercel', 'vcK_', 'vcx_', 'private_key', 'private key', 'DB_PASSWORD =', 'AccountKey=', 'token:', 'ntn_', 'figd_'];
    const fill = ['', 'x', ' ', '\n', 'é', '\u212A', 'the auth service', 'versions linked'];
    let seed = 7;
    const pick = <T>(list: readonly T[]): T => list[(seed = (seed * 1103515245 + 12345) % 2147483648) % list.length];
    const texts: string[] = [...pieces];
    for (let k = 0; k < 3000; k++) texts.push(`${pick(fill)}${pick(pieces).slice(0, 1 + (seed % 12))}${pick(fill)}${pick(pieces)}`.slice(seed % 3));
    const disagree = texts.filter((text) => maybeSecret(text) !== slow(text));
    expect(disagree).toEqual([]);
    expect(texts.filter(slow).length).toBeGreaterThan(1000);
    expect(texts.filter((text) => !slow(text)).length).toBeGreaterThan(300);
  });

  it('reads each unit by its low byte: a unit outside ASCII that reads as a start starts nothing, and long texts are read whole', () => {
    // U+0161 reads as "a", U+016B as "k", U+0169 as "i": "akia" to the byte loop, not to the pattern.
    expect(maybeSecret('\u0161\u016B\u0169a and \u0161kia')).toBe(false);
    expect(maybeSecret('\u0161\u016B\u0169 AKIA')).toBe(true);
    for (const size of [70_000, (1 << 20) + 5]) {
      const long = `${'the auth service versions linked é\n'.repeat(size / 36)}`;
      expect([maybeSecret(long), maybeSecret(`${long}ghp_`), maybeSecret(`ghp_${long}`)]).toEqual([false, true, true]);
    }
    expect(maybeSecret('x ghp_')).toBe(true);
  });
});
