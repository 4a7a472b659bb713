/**
 * Files that rank last (design §5): `expires` in the past, `status: resolved`, and duplicates — a
 * file whose body has exactly the words of another's (the body's counted words, text/bm25.ts fieldBag,
 * counted only for bodies whose wordsKey meets another's), the older one being the duplicate. Superseded files are marked
 * apart (lifecycle/supersede.ts). Pure: the clock comes in as `now`.
 */
import { expiredReason } from '../lifecycle/archive.js';
import { fileTimeMs } from '../lifecycle/age.js';
import { isResolvedStatus } from '../store/schema.js';
import { wordsKeyOf, type FieldBag, type WordsKey } from '../text/bm25.js';
import type { PackFile } from './types.js';

/** A body shorter than this many characters is not called a duplicate (short notes can match by chance). */
const MIN_DUPLICATE_CHARS = 60;

export function demotions(files: readonly (PackFile & { bags?: readonly unknown[]; words?: WordsKey | null; bodyLength?: number })[], now: Date): Map<string, string> {
  const out = new Map<string, string>();
  // A body whose length no other body has cannot have another's words: its wordsKey is not asked for.
  const lengths = new Map<number, number>();
  for (const { bodyLength } of files) if (bodyLength !== undefined) lengths.set(bodyLength, (lengths.get(bodyLength) ?? 0) + 1);
  // Only bodies whose wordsKey meets another's can have the same words: only those are bagged.
  const wordsOf = (file: (typeof files)[number]): WordsKey | undefined => {
    if (file.bodyLength !== undefined && (file.bodyLength < MIN_DUPLICATE_CHARS || lengths.get(file.bodyLength)! < 2)) return undefined;
    const bag = file.words === undefined ? (file.bags?.[3] as FieldBag | null | undefined) : undefined;
    const words = file.words !== undefined ? file.words : bag ? wordsKeyOf(bag) : null;
    return words && words[0] >= MIN_DUPLICATE_CHARS ? words : undefined;
  };
  const meets = sharedKeys(files.map(wordsOf));
  // Bodies of the same length are compared by their words; a body's length is known without reading it.
  const byLength = new Map<number, number[]>();
  const bags: (FieldBag | undefined)[] = [];
  files.forEach((file, i) => {
    const expired = expiredReason(file, now);
    if (expired) out.set(file.path, expired);
    else if (isResolvedStatus(file.status)) out.set(file.path, `status: ${file.status}`);
    const bag = meets[i] ? ((file.bags?.[3] as FieldBag | null | undefined) ?? undefined) : undefined;
    bags.push(bag);
    if (!bag || bag.length < MIN_DUPLICATE_CHARS) return;
    // Same text length and same length of the words string: worth comparing.
    const lengths = bag.length * 65_536 + (bag.stems.length % 65_536);
    const same = byLength.get(lengths);
    if (same) same.push(i);
    else byLength.set(lengths, [i]);
  });
  for (const group of byLength.values()) {
    if (group.length < 2) continue;
    // Compared with ===, which stops at the first difference (no hashing of long strings).
    const kept: number[] = [];
    for (const i of group) {
      const bag = bags[i]!;
      const at = kept.findIndex((k) => bags[k]!.stems === bag.stems && JSON.stringify(bags[k]!.odd) === JSON.stringify(bag.odd));
      if (at < 0) {
        kept.push(i);
        continue;
      }
      const k = kept[at];
      // The older one is the duplicate (at the same age, the later path).
      const [a, b] = [files[i], files[k]];
      const newer = fileTimeMs(a) > fileTimeMs(b) || (fileTimeMs(a) === fileTimeMs(b) && a.path < b.path) ? i : k;
      const older = newer === i ? k : i;
      kept[at] = newer;
      if (!out.has(files[older].path)) out.set(files[older].path, `duplicate of ${files[newer].path}`);
    }
  }
  return out;
}

/**
 * Per file, 1 when another file's words key is the same. Keys are told apart by their last number (a
 * mix of the words' first characters) first: only files that share it are compared as whole keys.
 */
function sharedKeys(keys: readonly (WordsKey | undefined)[]): Uint8Array {
  const shared = new Uint8Array(keys.length);
  const first = new Map<number, number>();
  const whole = new Map<string, number[]>();
  const compare = (i: number) => {
    const key = keys[i]!.join(':');
    const same = whole.get(key);
    if (same) same.push(i);
    else whole.set(key, [i]);
  };
  keys.forEach((key, i) => {
    if (key === undefined) return;
    const at = first.get(key[2]);
    if (at === undefined) first.set(key[2], i);
    else {
      // The first file with these firsts is compared too, once.
      if (at >= 0) compare(at);
      first.set(key[2], -1);
      compare(i);
    }
  });
  for (const same of whole.values()) if (same.length > 1) for (const i of same) shared[i] = 1;
  return shared;
}
