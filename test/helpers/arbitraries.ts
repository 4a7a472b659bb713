/** fast-check arbitraries shared by the property tests. */
import fc from 'fast-check';

/** The first code point after the surrogates, and how many surrogates there are. */
const AFTER_SURROGATES = 0xe000;
const SURROGATES = 0x800;

/**
 * fast-check's `unit: 'binary'` (any code point but a lone surrogate), built the way fast-check builds
 * it (an index up to 0x10F7FF; indices from 0xD800 on skip the surrogates), so it draws and shrinks the
 * same strings from the same seed. fast-check's own maps each of the 1.1 million code points back to its
 * index the first time a string is made from it (2.5 s and 130 MB that a test worker then keeps);
 * here that is arithmetic.
 */
export const BINARY_UNIT = fc.nat({ max: 0x10ffff - SURROGATES }).map(
  (index) => String.fromCodePoint(index < 0xd800 ? index : index + SURROGATES),
  (value) => {
    const point = typeof value === 'string' ? value.codePointAt(0) : undefined;
    if (point === undefined || String.fromCodePoint(point) !== value || (point >= 0xd800 && point < AFTER_SURROGATES)) throw new Error('not one code point');
    return point < 0xd800 ? point : point - SURROGATES;
  },
);
