import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { MemctxError } from '../../src/kernel/errors.js';
import { inMemoriesTerms, memoryErrorText, MemoryToolError } from '../../src/kernel/memory-errors.js';

describe('inMemoriesTerms', () => {
  it('names the memory directory /memories, as given or through a link, and cuts other absolute paths to their last part', () => {
    const base = tempDir();
    const real = join(base, 'real');
    mkdirSync(real);
    const link = join(base, 'link');
    symlinkSync(real, link);
    expect(inMemoriesTerms(`${link}/a.md and ${real}/b.md, see /etc/ssh/sshd_config or "/home/u/x.txt"`, link)).toBe('/memories/a.md and /memories/b.md, see …/sshd_config or "…/x.txt"');
  });

  it('keeps /memories paths, and works without a root or for one that is gone', () => {
    expect(inMemoriesTerms('/memories/notes/a.md is fine', undefined)).toBe('/memories/notes/a.md is fine');
    expect(inMemoriesTerms('/gone/root/x.md', '/gone/root')).toBe('/memories/x.md');
  });
});

describe('memoryErrorText', () => {
  const root = '/srv/project/.memory';

  it("gives a tool refusal's message as it is, in /memories terms", () => {
    expect(memoryErrorText(new MemoryToolError(`${root}/a.md already exists`), root)).toBe('/memories/a.md already exists');
  });

  it('puts a relative file under /memories, with its line and hint', () => {
    expect(memoryErrorText(new MemctxError('bad YAML', { file: 'notes/a.md', line: 2, hint: 'fix it' }), root)).toBe('/memories/notes/a.md:2: bad YAML (fix it)');
  });

  it('maps an absolute file inside the root, and cuts one outside it', () => {
    expect(memoryErrorText(new MemctxError('too big', { file: `${root}/b.md` }), root)).toBe('/memories/b.md: too big');
    expect(memoryErrorText(new MemctxError('refused', { file: '/etc/passwd' }), root)).toBe('…/passwd: refused');
  });

  it('calls anything else an unexpected failure', () => {
    expect(memoryErrorText(new Error(`EACCES: ${root}/c.md`), root)).toBe('unexpected failure: EACCES: /memories/c.md');
    expect(memoryErrorText('boom')).toBe('unexpected failure: boom');
  });
});
