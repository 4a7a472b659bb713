/**
 * Which memory files are superseded: marked `status: superseded`, or named in the
 * `supersedes:` (a path or a list) of a file that is not older. Pure: ages come from the files.
 * When two files name each other, the newer one stands; at the same age neither is superseded and
 * the cycle is reported (lint warns).
 */
import { fileTimeMs, type Dated } from './age.js';

export interface SupersedableFile extends Dated {
  readonly path: string;
  readonly status?: string;
  readonly supersedes?: readonly string[];
}

export interface Supersession {
  /** Superseded path → why ("status: superseded" or "superseded by PATH"). */
  superseded: Map<string, string>;
  /** `supersedes:` entries naming no memory file. */
  missing: { path: string; target: string }[];
  /** Files that supersede each other in a ring, each ring once, sorted. */
  cycles: string[][];
}

/** The memory path a `supersedes:` entry names, or undefined. */
function resolveTarget(entry: string, from: string, paths: ReadonlySet<string>): string | undefined {
  const clean = entry.trim().replace(/\\/g, '/').replace(/^\.\//, '').replace(/^\/+/, '');
  const dir = from.includes('/') ? from.slice(0, from.lastIndexOf('/') + 1) : '';
  for (const candidate of [clean, `${clean}.md`, `${dir}${clean}`, `${dir}${clean}.md`]) if (paths.has(candidate)) return candidate;
  return undefined;
}

export function supersession(files: readonly SupersedableFile[]): Supersession {
  // The paths are gathered only when some file names another (most memories have few or none).
  const paths = new Set(files.some((f) => f.supersedes?.length) ? files.map((f) => f.path) : []);
  const edges = new Map<string, Set<string>>();
  const missing: Supersession['missing'] = [];
  for (const file of files) {
    for (const entry of file.supersedes ?? []) {
      const target = resolveTarget(entry, file.path, paths);
      if (target === undefined) missing.push({ path: file.path, target: entry });
      else if (target !== file.path) (edges.get(file.path) ?? edges.set(file.path, new Set()).get(file.path)!).add(target);
    }
  }
  const reaches = (from: string, to: string): boolean => {
    const seen = new Set<string>();
    const stack = [from];
    while (stack.length) {
      const at = stack.pop()!;
      if (at === to) return true;
      if (seen.has(at)) continue;
      seen.add(at);
      for (const next of edges.get(at) ?? []) stack.push(next);
    }
    return false;
  };
  const byPath = new Map(edges.size ? files.map((f) => [f.path, f]) : []);
  const superseded = new Map<string, string>();
  const cycles = new Map<string, string[]>();
  for (const [from, targets] of edges) {
    for (const target of targets) {
      const circular = reaches(target, from);
      if (circular) {
        const ring = [from, target].sort();
        cycles.set(ring.join('\0'), ring);
      }
      const newer = fileTimeMs(byPath.get(from)!) - fileTimeMs(byPath.get(target)!);
      if (newer > 0 || (newer === 0 && !circular)) if (!superseded.has(target)) superseded.set(target, `superseded by ${from}`);
    }
  }
  for (const file of files) if (file.status === 'superseded' && !superseded.has(file.path)) superseded.set(file.path, 'status: superseded');
  return { superseded, missing, cycles: [...cycles.values()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)) };
}
