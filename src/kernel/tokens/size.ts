import { MemctxError } from '../errors.js';

/** The one parser for token sizes on the command line: "200000", "200k", "1.5m" (k = 1,000, m = 1,000,000). */
export function parseTokenSize(value: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kKmM]?)\s*$/.exec(value);
  if (!m || (m[2] === '' && m[1].includes('.'))) return undefined;
  const n = Math.round(Number(m[1]) * (m[2] === '' ? 1 : /k/i.test(m[2]) ? 1000 : 1_000_000));
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/** The usage hint every token option shares. */
export function tokenSizeHint(option: string): string {
  return `e.g. ${option} 25000, ${option} 25k or ${option} 1m`;
}

/** A token-size option (--window, --target, --max): 200000, 200k or 1m; a usage error naming `option` otherwise. */
export function parseTokenOption(value: string, option: string): number {
  const n = parseTokenSize(value);
  if (n === undefined) throw new MemctxError(`${option} must be a positive number of tokens, got "${value}"`, { hint: tokenSizeHint(option) });
  return n;
}
