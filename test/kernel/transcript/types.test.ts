import { describe, expect, it } from 'vitest';
import { isTranscriptFormat, TRANSCRIPT_FORMATS } from '../../../src/kernel/transcript/types.js';
import { FORMATS } from '../../../src/kernel/transcript/registry.js';

describe('transcript formats', () => {
  it('every format name has a reader in the registry, and every reader a name', () => {
    expect(FORMATS.map((f) => f.name).sort()).toEqual([...TRANSCRIPT_FORMATS].sort());
  });

  it('isTranscriptFormat takes the names as written, nothing else', () => {
    expect(['claude', 'codex', 'gemini', 'openai', 'text', 'Claude', 'jsonl', ''].map(isTranscriptFormat)).toEqual([true, true, true, true, true, false, false, false]);
  });
});
