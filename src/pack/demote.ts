/**
 * Files that rank last (design §5): `expires` in the past, `status: resolved`, and duplicates — a
 * file whose body has exactly the words of another's (the body's counted words, text/bm25.ts
 * fieldBag, so no body is read), the older one being the duplicate. Superseded files are marked
 * apart (lifecycle/supersede.ts). Pure: the clock comes in as `now`.
 */
import { expiredReason } from '../lifecycle/archive.js';
import { fileTimeMs } from '../lifecycle/age.js';
import { isResolvedStatus } from '../store/schema.js';
import { fieldBag } from '../text/bm25.js';
import type { PackFile } from './types.js';

/** A body shorter than this many words is not called a duplicate (short notes can match by chance). */
const MIN_DUPLICATE_WORDS = 12;

export function demotions(files: readonly (PackFile & { bags?: readonly unknown[] })[], now: Date): Map<string, string> {
  const out = new Map<string, string>();
  const byWords = new Map<string, PackFile>();
  for (const file of files) {
    const expired = expiredReason(file, now);
    if (expired) out.set(file.path, expired);
    else if (isResolvedStatus(file.status)) out.set(file.path, `status: ${file.status}`);
    const bag = (file.bags?.[3] as ReturnType<typeof fieldBag> | null | undefined) ?? fieldBag(file.body);
    if (!bag || bag.length === 0) continue;
    const words = bag.stems.split(' ').length - 2 + bag.odd.length;
    if (words < MIN_DUPLICATE_WORDS) continue;
    const key = `${bag.length}\u0000${bag.stems}\u0000${JSON.stringify(bag.odd)}`;
    const other = byWords.get(key);
    if (!other) {
      byWords.set(key, file);
      continue;
    }
    // The older one is the duplicate (ties: the later path).
    const [keep, drop] = fileTimeMs(file) > fileTimeMs(other) || (fileTimeMs(file) === fileTimeMs(other) && file.path < other.path) ? [file, other] : [other, file];
    byWords.set(key, keep);
    if (!out.has(drop.path)) out.set(drop.path, `duplicate of ${keep.path}`);
  }
  return out;
}
