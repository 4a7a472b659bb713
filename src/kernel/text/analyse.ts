/**
 * The one text analyser for pack, search, lint and compact: words (letters and digits; each
 * Chinese/Japanese character is a word of its own), lower-cased, English stopwords dropped, and
 * English words reduced to their Porter stem (`stemmer`), so "migrating" and "migration" match.
 * Words in other scripts are kept as they are.
 */
import { stemmer } from 'stemmer';

/** Common English words and words that say nothing about a coding task. */
const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing done down during each few for from further get got had has have having he her here hers him his how ' +
    'i if in into is it its itself just let like me more most my no nor not now of off on once one only or other our ours out over own ' +
    'same she should so some such than that the their theirs them then there these they this those through to too under until up upon ' +
    'us very was we were what when where which while who whom why will with would you your yours yes via per etc ' +
    'make makes made need needs want wants please thing things way ok okay'
  ).split(' '),
);

const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const WORD = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{N}\p{M}]+/gu;
const ASCII_WORD = /^[a-z]+$/;

const stems = new Map<string, string>();

/** True for a single Chinese or Japanese character (a word of its own). */
export function isCjkChar(word: string): boolean {
  return word.length <= 2 && CJK_CHAR.test(word) && [...word].length === 1;
}

/** A lower-cased word's stem: Porter for plain English words, the word itself otherwise. */
export function stemWord(word: string): string {
  return word.length > 2 && ASCII_WORD.test(word) ? stemmer(word) : word;
}

/** stemWord, cached. */
export function stem(word: string): string {
  let s = stems.get(word);
  if (s === undefined) {
    s = stemWord(word);
    if (stems.size > 100_000) stems.clear();
    stems.set(word, s);
  }
  return s;
}

/** The words of a text, lower-cased, in order. */
export function words(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

/** A word worth matching: not a stopword, and two or more characters unless it is CJK. */
function isContentWord(word: string): boolean {
  return !STOPWORDS.has(word) && (word.length >= 2 || isCjkChar(word));
}

/** The terms of a text: content words, stemmed, in order (repeats kept). */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const word of words(text)) if (isContentWord(word)) out.push(stem(word));
  return out;
}

/** At most this many distinct terms are taken from a query (a 10,000-character task stays quick). */
export const MAX_QUERY_TERMS = 64;

/** The distinct terms of a query, in first-seen order. */
export function queryTerms(query: string): string[] {
  return [...new Set(terms(query))].slice(0, MAX_QUERY_TERMS);
}
