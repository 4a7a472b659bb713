/** A session summary's token target and the maximum over which it is shortened to the target. */
export const DEFAULT_TARGET = 500;
export const DEFAULT_MAX = 650;
