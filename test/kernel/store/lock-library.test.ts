import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { properLockfile } from '../../../src/kernel/store/lock-library.js';

describe('properLockfile', () => {
  it('is proper-lockfile itself, loaded once', () => {
    const lockfile = properLockfile();
    expect(lockfile).toBe(createRequire(import.meta.url)('proper-lockfile'));
    expect(properLockfile()).toBe(lockfile);
    expect(typeof lockfile.lock).toBe('function');
  });
});
