// drift/anchors.ts: the paths and globs a memory names, and how a glob matches a path.
import { describe, expect, it } from 'vitest';
import { globRegExp, memoryAnchors } from '../../../src/kernel/drift/anchors.js';
import { mem } from '../../helpers/lint.js';

const repo = (files: string[], memoryPrefix: string | undefined = '.memory') => ({
  files: new Set(files),
  dirs: new Set(files.flatMap((f) => (f.includes('/') ? [f.slice(0, f.lastIndexOf('/'))] : []))),
  basenames: new Set(files.map((f) => f.slice(f.lastIndexOf('/') + 1))),
  ignoredDirs: [],
  memoryPrefix,
});

describe('memoryAnchors', () => {
  it('`paths:` wins over the text: repository paths, globs, and entries that leave the repository apart', () => {
    const file = mem('auth.md', '---\nname: a\npaths:\n  - src/auth.ts\n  - ./lib/**/*.ts\n  - /etc/hosts\n  - ~/notes\n  - "C:\\\\tmp"\n  - ""\n---\nSee `src/other.ts`.\n');
    expect(memoryAnchors(file, repo(['src/auth.ts', 'src/other.ts']))).toEqual({ paths: ['src/auth.ts'], globs: ['lib/**/*.ts'], outside: ['/etc/hosts', '~/notes', 'C:\\tmp'], declared: true });
    expect(memoryAnchors(mem('one.md', '---\npaths: src/auth.ts\n---\n'), repo([])).paths).toEqual(['src/auth.ts']);
  });

  it('without `paths:`: the code the body names, a gone path included; never the memory directory or fenced code', () => {
    const body = 'Tokens live in `src/auth.ts`; the old `src/gone.ts` was removed.\nNotes in `.memory/other.md`.\n\n```\nsrc/fenced.ts\n```\n';
    expect(memoryAnchors(mem('auth.md', `---\nname: a\n---\n${body}`), repo(['src/auth.ts', '.memory/other.md']))).toEqual({ paths: ['src/auth.ts', 'src/gone.ts'], globs: [], outside: [], declared: false });
  });

  it('a memory naming no code has no anchors', () => {
    expect(memoryAnchors(mem('plain.md', '---\nname: a\n---\nJust prose.\n'), repo(['src/auth.ts']))).toEqual({ paths: [], globs: [], outside: [], declared: false });
  });
});

describe('globRegExp', () => {
  it('globs: ** crosses folders, * and ? stay within one name', () => {
    expect(['src/a.ts', 'src/x/y/a.ts', 'a.ts', 'src/a.tsx'].filter((p) => globRegExp('src/**/*.ts').test(p))).toEqual(['src/a.ts', 'src/x/y/a.ts']);
    expect(['src/a.ts', 'src/x/a.ts'].filter((p) => globRegExp('src/?.ts').test(p))).toEqual(['src/a.ts']);
  });
});
