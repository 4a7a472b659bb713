import { describe, expect, it } from 'vitest';
import { mentionedPaths } from '../../../../../src/kernel/lint/rules/content/broken-reference.js';
import { VALID, doc, lint, lines, mem } from '../../../../helpers/lint.js';

describe('content rules', () => {
  it('broken-reference: finds repository paths that no longer exist', () => {
    expect(mentionedPaths('See src/auth/session.ts:42, `src/cli/` and `package.json`; and/or Node.js/TypeScript.').map((m) => [m.path, m.column, m.bare])).toEqual([
      ['src/auth/session.ts', 5, false],
      ['src/cli/', 30, false],
      ['package.json', 45, true],
    ]);
    expect(mentionedPaths('Visit https://example.com/a/b.ts or www.example.com/x.js, @scope/pkg, /etc/hosts.conf, ~/x/y.ts, $HOME/a.ts')).toEqual([]);
    expect(mentionedPaths('Templates: plans/artifacts/<task-slug>/notes.md, `plans/<slug>/`, src/{a,b}.ts and logs/*.log')).toEqual([]);
  });

  it('broken-reference: checks mentions against the repository and memory links against the memory directory', async () => {
    const body = [
      'Auth lives in src/auth/session.ts and src/auth/legacy.ts.', // 6
      'Build output goes to dist/cli.js; config in `tsconfig.json`, `README.txt` and `src/old/`.', // 7
      'See [prefs](user_prefs.md), [gone](gone.md) and [[user-prefs]] and [[nobody]].', // 8
      'Relative: ../src/auth/session.ts and ./docs/x.md', // 9
      '```', // 10
      'cat src/not/checked.ts', // 11
      '```', // 12
    ].join('\n');
    const files = [mem('project_auth.md', doc({ ...VALID, related: '[missing.md]' }, body)), mem('user_prefs.md', doc({ ...VALID, name: 'user-prefs' }))];
    const result = await lint(['content/broken-reference'], {
      files,
      memoryPaths: ['project_auth.md', 'user_prefs.md'],
      repoFiles: ['src/auth/session.ts', 'tsconfig.json', '.memory/project_auth.md', '.memory/user_prefs.md'],
      repoIgnoredDirs: ['dist/'],
      memoryPrefix: '.memory',
    });
    expect(lines(result)).toEqual([
      'project_auth.md:6:1 content/broken-reference links to missing.md, which does not exist in the memory directory; fix or remove the link',
      'project_auth.md:8:39 content/broken-reference mentions src/auth/legacy.ts, which does not exist in the repository; verify before use, then update or remove the reference',
      'project_auth.md:9:63 content/broken-reference mentions README.txt, which does not exist in the repository; verify before use, then update or remove the reference',
      'project_auth.md:9:80 content/broken-reference mentions src/old/, which does not exist in the repository; verify before use, then update or remove the reference',
      'project_auth.md:10:1 content/broken-reference links to gone.md, which does not exist in the memory directory; fix or remove the link',
      'project_auth.md:10:1 content/broken-reference links to [[nobody]], which matches no memory file name; fix or remove the link',
      'project_auth.md:11:38 content/broken-reference mentions ./docs/x.md, which does not exist in the repository; verify before use, then update or remove the reference',
    ]);
  });

  it('broken-reference: links written inside inline code are examples, not links', async () => {
    const files = [mem('a.md', doc(VALID, 'Bodies link memories as `[[name]]` and `[x](y.md)`; this one is real: [[missing]].\n'))];
    expect(lines(await lint(['content/broken-reference'], { files }))).toEqual([
      'a.md:7:1 content/broken-reference links to [[missing]], which matches no memory file name; fix or remove the link',
    ]);
  });

  it('broken-reference: without a repository file list only memory links are checked', async () => {
    const files = [mem('a.md', doc(VALID, 'See src/gone.ts and [b](b.md).'))];
    expect(lines(await lint(['content/broken-reference'], { files }))).toEqual([
      'a.md:7:1 content/broken-reference links to b.md, which does not exist in the memory directory; fix or remove the link',
    ]);
  });
});
