/** Capacity: levels and advice, model windows, counting, and compaction. Pure: no disk, no clock. */
export { ADVICE, capacity, levelFor, atLeast, thresholdsProblem, formatPercent, bar } from './levels.js';
export { modelPreset, normalizeModelId, resolveWindow, describeWindowSource } from './models.js';
export { countTranscript } from './count.js';
