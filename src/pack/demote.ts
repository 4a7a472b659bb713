/**
 * Files that rank last (design §5): `expires` in the past, `status: resolved`, and duplicates — a
 * file whose body has exactly the words of another's (the body's counted words as the pack cache
 * keeps them, text/bm25.ts fieldBag, so no body is read), the older one being the duplicate. Superseded files are marked
 * apart (lifecycle/supersede.ts). Pure: the clock comes in as `now`.
 */
import { expiredReason } from '../lifecycle/archive.js';
import { fileTimeMs } from '../lifecycle/age.js';
import { isResolvedStatus } from '../store/schema.js';
import type { FieldBag } from '../text/bm25.js';
import type { PackFile } from './types.js';

/** A body shorter than this many characters is not called a duplicate (short notes can match by chance). */
const MIN_DUPLICATE_CHARS = 60;

export function demotions(files: readonly (PackFile & { bags?: readonly unknown[] })[], now: Date): Map<string, string> {
  const out = new Map<string, string>();
  // Bodies of the same length are compared by their words; a body's length is known without reading it.
  const byLength = new Map<number, number[]>();
  const bags: (FieldBag | undefined)[] = [];
  files.forEach((file, i) => {
    const expired = expiredReason(file, now);
    if (expired) out.set(file.path, expired);
    else if (isResolvedStatus(file.status)) out.set(file.path, `status: ${file.status}`);
    const bag = (file.bags?.[3] as FieldBag | null | undefined) ?? undefined;
    bags.push(bag);
    if (!bag || bag.length < MIN_DUPLICATE_CHARS) return;
    // Same text length and same length of the words string: worth comparing.
    const key = bag.length * 65_536 + (bag.stems.length % 65_536);
    const same = byLength.get(key);
    if (same) same.push(i);
    else byLength.set(key, [i]);
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
