export { DEFAULT_ENCODING, ENCODINGS, createTokenCounter, isEncodingName, loadTokenCounter, loadTokenCounterSync, tokenizerLoaded } from './count.js';
export type { EncodingName, TokenCounter } from './count.js';
export { cachedCounter, contentHash } from './cache.js';
export type { CachedCounter } from './cache.js';
export { countJoined, joinsCleanly } from './join.js';
