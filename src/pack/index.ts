export { scoreFiles } from './score.js';
export type { FileScore, ScoreOptions } from './score.js';
export { PROFILES, PROFILE_NAMES, profilePicks } from './profiles.js';
export type { Profile, ProfileName } from './profiles.js';
export { parseBudget, resolveWindow as resolveBudgetWindow, modelWindow } from './budget.js';
export { FORMATS, fileText } from './render.js';
export type { BundleFormat } from './render.js';
export { packBundle } from './select.js';
export type { PackInput, PackResult, PackedFile, Tier } from './select.js';
