/**
 * Where the real transcripts are. The repository holds only some of the graded transcripts
 * (fixtures/transcripts/real/); transcripts fetched from other public repositories may not be
 * committed here and live in the steering repository's shared/transcripts/real/ instead (see
 * fixtures/transcripts/real/SOURCES.md). A transcript absent from the repository is read from the
 * folder named by MEMCTX_REAL_TRANSCRIPTS, else from ../shared/transcripts/real/ beside the repository;
 * when it is in neither, the bench and the tests skip it and say so.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** The repository: this file's parent when a test imports the source, two levels up from dist/bench. */
export const REPO_ROOT = [resolve(here, '..'), resolve(here, '../..')].find((d) => existsSync(join(d, 'fixtures/transcripts/real'))) ?? resolve(here, '..');

/** The real transcripts committed to the repository (with SOURCES.md, expected-facts.json, files-touched.json). */
export const REAL_IN_REPO = join(REPO_ROOT, 'fixtures/transcripts/real');

/** The folder searched for transcripts the repository does not hold. */
export function externalRealDir(env: NodeJS.ProcessEnv = process.env): string {
  const named = env.MEMCTX_REAL_TRANSCRIPTS;
  return named ? resolve(named) : resolve(REPO_ROOT, '../shared/transcripts/real');
}

/** The path of a real transcript: in the repository, else in the external folder; undefined when in neither. */
export function realTranscript(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const inRepo = join(REAL_IN_REPO, name);
  if (existsSync(inRepo)) return inRepo;
  const outside = join(externalRealDir(env), name);
  return existsSync(outside) ? outside : undefined;
}

/** Which of the named transcripts can be read, and the one line that says which cannot. */
export function locateTranscripts(names: string[], env: NodeJS.ProcessEnv = process.env): { found: Map<string, string>; absent: string[]; note: string | undefined } {
  const found = new Map<string, string>();
  const absent: string[] = [];
  for (const name of names) {
    const path = realTranscript(name, env);
    if (path) found.set(name, path);
    else absent.push(name);
  }
  const note = absent.length
    ? `${absent.length} of ${names.length} graded transcripts not present: ${absent.join(', ')} (not in fixtures/transcripts/real/ nor in ${externalRealDir(env)}; set MEMCTX_REAL_TRANSCRIPTS or see SOURCES.md)`
    : undefined;
  return { found, absent, note };
}
