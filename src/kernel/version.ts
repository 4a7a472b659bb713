const { existsSync, readFileSync } = process.getBuiltinModule('node:fs');

/** package.json is three levels up from dist/src/kernel/, two up from src/kernel/ (tests run the sources). */
const candidates = ['../../../package.json', '../../package.json'].map((rel) => new URL(rel, import.meta.url));
const packageJson = candidates.find((url) => existsSync(url)) ?? candidates[0];

const pkg = JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string; homepage?: string; repository?: string | { url?: string } };

/** The package version, read once. */
export const VERSION: string = pkg.version;

/** package.json's `repository` as a web address (git+https://host/o/r.git → https://host/o/r; github:o/r and o/r too), if set. */
export function repositoryWebUrl(repository: string | { url?: string } | undefined): string | undefined {
  const url = (typeof repository === 'string' ? repository : repository?.url)?.trim();
  if (!url) return undefined;
  const short = /^(?:github:)?([\w.-]+\/[\w.-]+)$/.exec(url);
  if (short) return `https://github.com/${short[1].replace(/\.git$/, '')}`;
  const ssh = /^(?:git\+)?(?:ssh:\/\/)?git@([^:/]+)[:/](.+?)(?:\.git)?\/?$/.exec(url);
  if (ssh) return `https://${ssh[1]}/${ssh[2]}`;
  const web = /^(?:git\+)?(https?:\/\/.+?)(?:\.git)?\/?$/.exec(url);
  return web ? web[1] : undefined;
}

/** Where memctx is documented: package.json's homepage, else its repository; each undefined when not set. */
export const LINKS: { home?: string; repository?: string } = (() => {
  const repository = repositoryWebUrl(pkg.repository);
  const home = pkg.homepage?.trim() || repository;
  return { ...(home ? { home } : {}), ...(repository ? { repository } : {}) };
})();
