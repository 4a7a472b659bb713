import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pathInRepo } from '../../../src/kernel/hooks/git.js';
import { HOOK_MARKER, isMemctxHook, renderHookScript, shellQuote } from '../../../src/kernel/hooks/script.js';
import { removeDir, tempDir } from '../../helpers/cli.js';

const sh = (script: string) => spawnSync('sh', ['-c', script], { encoding: 'utf8' });

describe('shellQuote', () => {
  for (const value of ["plain", "with space", "it's", "'", "''", '$HOME `id` "q" \\n', "a'b'c", '']) {
    it(`sh reads ${JSON.stringify(value)} back unchanged`, () => {
      expect(sh(`printf %s ${shellQuote(value)}`).stdout).toBe(value);
    });
  }
});

describe('renderHookScript', () => {
  it('is valid sh, carries the marker, and records node, bin and --dir quoted', () => {
    const script = renderHookScript({ node: '/opt/node 20/bin/node', bin: "/home/o'brien/memctx/bin/memctx.js", dir: 'a b/.memory' });
    expect(script.startsWith('#!/bin/sh\n')).toBe(true);
    expect(isMemctxHook(script)).toBe(true);
    expect(script).toContain("node='/opt/node 20/bin/node'\n");
    expect(script).toContain("bin='/home/o'\\''brien/memctx/bin/memctx.js'\n");
    expect(script).toContain(`exec "$node" "$bin" --dir 'a b/.memory' index --staged\n`);
    expect(script).toContain(`exec memctx --dir 'a b/.memory' index --staged\n`);
    expect(spawnSync('sh', ['-n'], { input: script }).status).toBe(0);
  });

  it('omits --dir for the default memory directory', () => {
    const script = renderHookScript({ node: '/n', bin: '/b' });
    expect(script).toContain('exec "$node" "$bin" index --staged\n');
    expect(script).not.toContain('--dir');
  });

  it('writes Windows paths with forward slashes for Git for Windows sh', () => {
    const script = renderHookScript({ node: 'C:\\Program Files\\nodejs\\node.exe', bin: 'C:\\p\\memctx.js' });
    expect(script).toContain("node='C:/Program Files/nodejs/node.exe'\n");
  });
});

describe('isMemctxHook', () => {
  it('recognises only a hook carrying the marker line', () => {
    expect(isMemctxHook(`#!/bin/sh\r\n${HOOK_MARKER}\r\n`)).toBe(true);
    expect(isMemctxHook('#!/bin/sh\nnpx memctx index --staged\n')).toBe(false);
    expect(isMemctxHook(`#!/bin/sh\necho "${HOOK_MARKER}"\n`)).toBe(false);
  });
});

describe('pathInRepo', () => {
  let base = '';
  afterEach(() => removeDir(base));

  it('gives the path inside the repository with / separators, through symlinks, for paths that do not exist yet', () => {
    base = tempDir();
    mkdirSync(join(base, 'repo/sub'), { recursive: true });
    symlinkSync(join(base, 'repo'), join(base, 'link'));
    expect(pathInRepo(join(base, 'repo'), join(base, 'repo'))).toBe('');
    expect(pathInRepo(join(base, 'repo'), join(base, 'repo/sub/.memory'))).toBe('sub/.memory');
    expect(pathInRepo(join(base, 'repo'), join(base, 'link/sub/.memory'))).toBe('sub/.memory');
    expect(pathInRepo(join(base, 'repo'), join(base, 'repo-other/.memory'))).toBeUndefined();
    expect(pathInRepo(join(base, 'repo'), join(base, '.memory'))).toBeUndefined();
    expect(pathInRepo(join(base, 'repo'), join(base, 'repo/..memory'))).toBe('..memory');
  });
});
