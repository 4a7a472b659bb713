export { DEFAULT_ENCODING, ENCODINGS, isEncodingName, loadTokenCounter } from './count.js';
export type { EncodingName, TokenCounter } from './count.js';
