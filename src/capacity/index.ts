/** Capacity: levels and advice, model windows, counting, and compaction. Pure: no disk, no clock. */
export { LEVELS, ADVICE, DEFAULT_THRESHOLDS, capacity, levelFor, atLeast, thresholdsProblem, formatPercent, bar } from './levels.js';
export type { Level, Thresholds, Capacity } from './levels.js';
export { MODEL_PRESETS, DEFAULT_WINDOW, modelPreset, normalizeModelId, resolveWindow, describeWindowSource } from './models.js';
export type { ModelPreset, ResolvedWindow } from './models.js';
export { countTranscript } from './count.js';
export type { CountResult, CountedItem } from './count.js';
