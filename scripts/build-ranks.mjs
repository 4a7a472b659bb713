// Part of `npm run build`: writes each encoding's rank table beside the built tokenizer
// (dist/src/kernel/tokens/<encoding>.ranks) so memctx reads it in milliseconds instead of building it.
import { writeFileSync } from 'node:fs';
import { buildRankTable } from '../dist/src/kernel/tokens/bpe.js';
import { rankFileName, requireRankFile, serializeRankTable } from '../dist/src/kernel/tokens/rank-file.js';
import { ENCODINGS } from '../dist/src/kernel/tokens/encodings.js';

for (const encoding of ENCODINGS) {
  const file = requireRankFile(encoding);
  const data = serializeRankTable(buildRankTable(file), encoding, file.pat_str);
  writeFileSync(new URL(`../dist/src/kernel/tokens/${rankFileName(encoding)}`, import.meta.url), data);
}
