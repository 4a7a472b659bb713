/** The content hash that keys token counts and the pack cache: a light module, loaded without the tokenizer. */
type Crypto = typeof import('node:crypto') & { hash?: (algorithm: string, data: string, encoding: 'base64url') => string };

/** node:crypto, loaded with the first hash: its load is most of what a module importing it costs (the MCP server's start-up). */
let crypto: Crypto | undefined;

export function contentHash(text: string): string {
  crypto ??= process.getBuiltinModule('node:crypto') as Crypto;
  // crypto.hash (Node >= 20.12) is several times faster than createHash on short texts.
  return crypto.hash ? crypto.hash('sha1', text, 'base64url') : crypto.createHash('sha1').update(text).digest('base64url');
}
