export { scoreFiles } from './score.js';
export type { FileScore, ScoreOptions } from './score.js';
export { packBundle } from './select.js';
export type { PackInput, PackResult, PackedFile } from './select.js';
