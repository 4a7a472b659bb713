import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.js';
import { LINKS, repositoryWebUrl, VERSION } from '../../src/kernel/version.js';

describe('VERSION and LINKS', () => {
  it("are package.json's version, homepage and repository", () => {
    const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string; homepage: string };
    expect(VERSION).toBe(pkg.version);
    expect(LINKS).toEqual({ home: pkg.homepage, repository: 'https://github.com/memctx/memctx' });
  });
});

describe('repositoryWebUrl', () => {
  it('turns the forms package.json allows into a web address', () => {
    expect(repositoryWebUrl({ type: 'git', url: 'git+https://github.com/o/r.git' } as { url: string })).toBe('https://github.com/o/r');
    expect(repositoryWebUrl('https://gitlab.com/group/r/')).toBe('https://gitlab.com/group/r');
    expect(repositoryWebUrl('github:o/r')).toBe('https://github.com/o/r');
    expect(repositoryWebUrl('o/r.git')).toBe('https://github.com/o/r');
    expect(repositoryWebUrl('git@github.com:o/r.git')).toBe('https://github.com/o/r');
    expect(repositoryWebUrl('git+ssh://git@host.example/o/r.git')).toBe('https://host.example/o/r');
  });

  it('is undefined when there is none or it is not an address', () => {
    expect(repositoryWebUrl(undefined)).toBeUndefined();
    expect(repositoryWebUrl({})).toBeUndefined();
    expect(repositoryWebUrl('  ')).toBeUndefined();
    expect(repositoryWebUrl('file:../local')).toBeUndefined();
  });
});
