import type { RepoView } from './types.js';

/** Build the look-up sets for a repository file list. */
export function repoView(files: string[], ignoredDirs: string[] = [], memoryPrefix?: string): RepoView {
  const dirs = new Set<string>();
  const basenames = new Set<string>();
  for (const file of files) {
    basenames.add(file.slice(file.lastIndexOf('/') + 1));
    for (let at = file.lastIndexOf('/'); at > 0; at = file.lastIndexOf('/', at - 1)) {
      const dir = file.slice(0, at);
      if (dirs.has(dir)) break;
      dirs.add(dir);
    }
  }
  return { files: new Set(files), dirs, basenames, ignoredDirs: ignoredDirs.map((d) => (d.endsWith('/') ? d : `${d}/`)), memoryPrefix };
}

/** True when a repository-relative path is a listed file or directory, or lies under an ignored directory. */
export function repoHas(repo: RepoView, path: string): boolean {
  const clean = path.replace(/\/+$/, '');
  if (clean === '') return true;
  if (repo.files.has(clean) || repo.dirs.has(clean)) return true;
  return repo.ignoredDirs.some((dir) => `${clean}/`.startsWith(dir));
}
