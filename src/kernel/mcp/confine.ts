/**
 * The MCP boundary for paths outside the memory directory: a tool reads a transcript only
 * from this project's own transcript places, never any file on the host. The CLI is not confined: its
 * user names the files it reads.
 */
import { realpathSync, statSync } from 'node:fs';
import { extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { claudeProjectDir } from '../store/find.js';
import { MemctxError } from '../errors.js';

export interface Places {
  /** The project: the directory the server runs in. */
  cwd: string;
  home: string;
  env: Record<string, string | undefined>;
}

/** Where a transcript may come from, with the extensions allowed there. */
interface Place {
  dir: string;
  extensions: readonly string[];
  /** Refuse paths with a hidden part (`.env`, `.git/`, `.ssh/`) below the place. */
  noHidden: boolean;
}

function places({ cwd, home, env }: Places): Place[] {
  const codexHome = env.CODEX_HOME?.trim() ? resolve(env.CODEX_HOME.trim()) : join(home, '.codex');
  return [
    { dir: claudeProjectDir(cwd, home, env), extensions: ['.jsonl'], noHidden: false },
    { dir: join(codexHome, 'sessions'), extensions: ['.jsonl'], noHidden: false },
    { dir: resolve(cwd), extensions: ['.jsonl', '.json', '.txt', '.md', '.log'], noHidden: true },
  ];
}

/** The path below dir, or undefined when it is dir itself or outside it. */
function below(dir: string, path: string): string | undefined {
  const rel = relative(dir, path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : undefined;
}

function allowedIn(place: Place, path: string): boolean {
  const rel = below(place.dir, path);
  if (rel === undefined) return false;
  if (!place.extensions.includes(extname(path).toLowerCase())) return false;
  return !place.noHidden || !rel.split(sep).some((part) => part.startsWith('.'));
}

function real(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

const REFUSED_HINT =
  "give a transcript of this project: a .jsonl file in Claude Code's project folder or Codex's sessions folder, or a .jsonl/.json/.txt/.md/.log file inside the project (no hidden folders); leave it out for the latest Claude Code session";

/**
 * The real path of a transcript an MCP tool may read, or a MemctxError that echoes nothing of the file.
 * The check is on the path as given and again on its real path (a symlink inside a place pointing out is
 * refused). A swap between this check and the read remains possible; the reader then reads the new target.
 */
export function confineTranscript(given: string, where: Places): string {
  const refused = new MemctxError(`transcript ${JSON.stringify(given)} is outside this project's transcripts`, { hint: REFUSED_HINT });
  if (given.includes('\0')) throw refused;
  const all = places(where);
  const path = resolve(where.cwd, given);
  if (!all.some((place) => allowedIn(place, path))) throw refused;
  const target = real(path);
  if (target === undefined) throw new MemctxError(`transcript ${JSON.stringify(given)} does not exist`, { hint: REFUSED_HINT });
  const realPlaces = all.map((place) => ({ ...place, dir: real(place.dir) ?? place.dir }));
  if (!realPlaces.some((place) => allowedIn(place, target))) throw refused;
  if (!statSync(target).isFile()) throw refused;
  return target;
}

/** Whether an MCP tool may read this file (a changed file it summarises): inside the project, not hidden, real path included. */
export function insideProject(path: string, where: Pick<Places, 'cwd'>): boolean {
  const project = real(where.cwd) ?? resolve(where.cwd);
  const target = real(resolve(where.cwd, path));
  const rel = target === undefined ? undefined : below(project, target);
  return rel !== undefined && !rel.split(sep).some((part) => part.startsWith('.'));
}
