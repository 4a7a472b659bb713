import { existsSync, readFileSync } from 'node:fs';

/** package.json is two levels up from dist/src/, one level up from src/ (tests run the sources). */
const candidates = ['../../package.json', '../package.json'].map((rel) => new URL(rel, import.meta.url));
const packageJson = candidates.find((url) => existsSync(url)) ?? candidates[0];

/** The package version, read once. */
export const VERSION: string = (JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string }).version;
