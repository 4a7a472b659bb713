export { scoreFiles } from '../../kernel/rank/score.js';
export type { FileScore, ScoreOptions } from '../../kernel/rank/score.js';
export { packBundle } from '../../kernel/bundle/select.js';
export type { PackInput, PackResult, PackedFile } from '../../kernel/bundle/select.js';
