/** Capacity: levels and advice, model windows, counting, and compaction. Pure: no disk, no clock. */
export { LEVELS, ADVICE, DEFAULT_THRESHOLDS, capacity, levelFor, atLeast, isLevel, thresholdsProblem, formatPercent, bar, nextSteps, type NextStep } from './levels.js';
export type { Level, Thresholds, Capacity } from './levels.js';
export { MODEL_PRESETS, DEFAULT_WINDOW, modelPreset, normalizeModelId, resolveWindow, describeWindowSource } from './models.js';
export type { ModelPreset, ResolvedWindow, WindowSource } from './models.js';
export { countTranscript, describeItem, preview } from './count.js';
export type { CountResult, CountedItem, Counter } from './count.js';
