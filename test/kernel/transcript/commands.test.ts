// transcript/commands.ts: shell commands read from a transcript (what they write, move, only look at, and
// which runs settle a failure); compaction.test.ts and extract/session-end.test.ts read them in whole sessions.
import { describe, expect, it } from 'vitest';
import { commandKey, fileOps, onlyLooks, simpleCommands } from '../../../src/kernel/transcript/commands.js';

describe('shell commands', () => {
  it('reads shell commands: quotes, here-documents, cd, redirections; read-only commands; what settles a failure', () => {
    expect(simpleCommands("cd web && git commit -m \"$(cat <<'EOF'\nfix: a > b; rm x\nEOF\n)\" && echo ok > log.txt").map((c) => [c.words[0], c.dir, c.writes])).toEqual([
      ['git', 'web', []],
      ['echo', 'web', ['log.txt']],
    ]);
    expect(simpleCommands('mv "my file.ts" lib/').flatMap(fileOps)).toEqual([{ kind: 'move', from: 'my file.ts', to: 'lib/my file.ts' }]);
    expect(onlyLooks('rg -n foo src | head -5')).toBe(true);
    expect(onlyLooks('git status && git diff --stat')).toBe(true);
    expect(onlyLooks('git commit -am x')).toBe(false);
    expect(onlyLooks('cat a > b')).toBe(false);
    expect(commandKey('cd app && npm run build 2>&1 | tail -3')).toBe('npm run build');
    expect(commandKey('gh api repos/x/pulls/1/comments')).toBe('gh');
    // any test runner's passing run settles a failing one
    expect(commandKey('go test ./... -run TestX')).toBe('test');
    expect(commandKey('npx vitest run test/a.test.ts')).toBe('test');
  });

  it('rm, cp and git mv: each file removed, copied or moved, in order', () => {
    expect(simpleCommands('rm -f a.txt b.txt && cp src.md dst.md && git mv a.md b.md').flatMap(fileOps)).toEqual([
      { kind: 'remove', path: 'a.txt' },
      { kind: 'remove', path: 'b.txt' },
      { kind: 'copy', from: 'src.md', to: 'dst.md' },
      { kind: 'move', from: 'a.md', to: 'b.md' },
    ]);
  });
});
