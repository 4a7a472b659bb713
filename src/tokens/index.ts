export { DEFAULT_ENCODING, ENCODINGS, isEncodingName, loadTokenCounter, loadTokenCounterSync, tokenizerLoaded } from './count.js';
export type { EncodingName, TokenCounter } from './count.js';
