/** Drift for a set of memories: anchors from the repository listing, history from git (a few calls for all), attribution in memory. */
import { memoryAnchors } from '../lint/anchors.js';
import { attributeDrift, type Drift, type DriftInput } from '../lint/drift.js';
import { repoHas, repoView } from '../lint/repo.js';
import { isSessionFile } from '../memindex/groups.js';
import type { Env } from '../sources/git.js';
import { historySince } from '../sources/history.js';
import type { RepoListing } from '../sources/repo.js';
import type { MemoryFile } from '../store/types.js';

export interface MemoryDrift {
  /** Memories that drifted, or whose drift is unknown; memories that hold are absent. */
  drift: Map<string, Drift>;
  /** `paths:` entries outside the repository, by memory. */
  outside: Map<string, string[]>;
}

/** The `verified` commit a memory records, or undefined. */
export function verifiedOf(file: Pick<MemoryFile, 'data'>): string | undefined {
  const value = file.data.verified;
  return typeof value === 'string' && value.trim() !== '' ? value.trim().toLowerCase() : undefined;
}

/**
 * Drift of every anchored, verified memory (session summaries are records, not claims). Outside git
 * nothing is said; when git cannot tell (a shallow clone), each such memory's drift is unknown.
 */
export function memoryDrift(files: readonly MemoryFile[], listing: RepoListing, memoryPrefix: string | undefined, env: Env): MemoryDrift {
  const repo = repoView(listing.files, listing.ignoredDirs, memoryPrefix);
  const inputs: DriftInput[] = [];
  const outside = new Map<string, string[]>();
  for (const file of files) {
    if (isSessionFile(file)) continue;
    const anchors = memoryAnchors(file, repo);
    if (anchors.outside.length) outside.set(file.path, anchors.outside);
    const verified = verifiedOf(file);
    if (verified !== undefined && anchors.paths.length + anchors.globs.length > 0) inputs.push({ path: file.path, anchors, verified });
  }
  const drift = new Map<string, Drift>();
  if (inputs.length === 0 || !listing.git) return { drift, outside };
  const history = historySince(listing.root, inputs.map((i) => i.verified), env);
  if (!history.known) {
    for (const input of inputs) drift.set(input.path, { state: 'unknown', reason: history.reason });
    return { drift, outside };
  }
  return { drift: attributeDrift(inputs, history, (path) => repoHas(repo, path)), outside };
}
