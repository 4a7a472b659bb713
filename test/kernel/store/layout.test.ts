import { describe, expect, it } from 'vitest';
import { fileStem, INDEX_FILE, MAX_FILE_BYTES } from '../../../src/kernel/store/layout.js';

describe('fileStem', () => {
  it('is the last path segment without .md, in any case', () => {
    expect(fileStem('notes/project_auth.md')).toBe('project_auth');
    expect(fileStem('README.MD')).toBe('README');
    expect(fileStem('a/b/c')).toBe('c');
  });

  it('drops only a final .md', () => {
    expect(fileStem('v1.2.md')).toBe('v1.2');
    expect(fileStem('notes.md/inner.txt')).toBe('inner.txt');
    expect(fileStem('x.md.bak')).toBe('x.md.bak');
  });

  it('names the index and the size limit', () => {
    expect(INDEX_FILE).toBe('MEMORY.md');
    expect(MAX_FILE_BYTES).toBe(1_048_576);
  });
});
