/** The encodings memctx counts with; a module of its own so option checks load no tokenizer code. */
export const ENCODINGS = ['o200k_base', 'cl100k_base'] as const;
export type EncodingName = (typeof ENCODINGS)[number];
export const DEFAULT_ENCODING: EncodingName = 'o200k_base';

export function isEncodingName(value: string): value is EncodingName {
  return (ENCODINGS as readonly string[]).includes(value);
}
