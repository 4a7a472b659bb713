import { formatGithub } from './github.js';
import { jsonPieces } from './json.js';
import { formatSarif } from './sarif.js';
import { formatStylish } from './stylish.js';
import type { Formatter } from './types.js';

export const FORMATTERS: Record<string, Formatter> = {
  stylish: formatStylish,
  json: jsonPieces,
  github: formatGithub,
  sarif: formatSarif,
};

export type { Formatter } from './types.js';
