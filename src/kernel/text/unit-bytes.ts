/**
 * A text as the low byte of each UTF-16 unit, for loops that classify characters through byte tables:
 * one native copy, then a loop over bytes, is faster than `charCodeAt` a unit at a time. An ASCII text
 * reads as itself; another unit reads as its low byte, which the caller must not take for ASCII.
 */

/** Texts up to this many units are copied into one buffer kept between calls; a longer one gets its own. */
const KEPT_MAX = 1 << 20;

let kept = Buffer.allocUnsafe(1 << 16);
let keptBytes = new Uint8Array(kept.buffer, kept.byteOffset, kept.length);

/**
 * The low byte of each unit of `text`: its first `text.length` bytes. The array is reused by the next
 * call, so read it before calling again.
 */
export function unitBytes(text: string): Uint8Array {
  const n = text.length;
  if (n > KEPT_MAX) {
    const own = Buffer.from(text, 'latin1');
    return new Uint8Array(own.buffer, own.byteOffset, own.length);
  }
  if (keptBytes.length < n) {
    kept = Buffer.allocUnsafe(Math.max(n, kept.length * 2));
    keptBytes = new Uint8Array(kept.buffer, kept.byteOffset, kept.length);
  }
  kept.write(text, 0, n, 'latin1');
  return keptBytes;
}
