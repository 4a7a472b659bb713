// compact/compact.ts: a transcript compacted, its tokens before and after counted, the file written where allowed
// (cli.test.ts runs `memctx compact` and its report).
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compact } from '../../../src/commands/compact/compact.js';
import { compactTranscript } from '../../../src/kernel/capacity/compact.js';
import { readTranscript } from '../../../src/kernel/transcript/index.js';
import { loadTokenCounterSync } from '../../../src/kernel/tokens/count.js';
import { FIXTURES, tempDir } from '../../helpers/cli.js';

const SESSION = join(FIXTURES, 'transcripts', 'claude-session.jsonl');

function project(): string {
  const cwd = tempDir('memctx-compact-');
  copyFileSync(SESSION, join(cwd, 'session.jsonl'));
  return cwd;
}

const deps = (cwd: string, memoryRoot?: string) => ({ cwd, readStdin: async () => Buffer.from(''), memoryRoot: () => memoryRoot });

describe('compact', () => {
  it('counts the whole transcript and the compacted one in the encoding asked for, and what it saves', async () => {
    const cwd = project();
    const report = await compact({ file: 'session.jsonl', keepLast: 2, encoding: 'cl100k_base' }, deps(cwd));
    const header = ['# Transcript: session.jsonl (compacted by memctx)'];
    const transcript = readTranscript(readFileSync(SESSION, 'utf8'));
    const counter = loadTokenCounterSync('cl100k_base');
    const before = counter.count(compactTranscript(transcript, { verbatim: true, header }).markdown);
    const after = counter.count(compactTranscript(transcript, { keepLast: 2, header }).markdown);
    expect([report.name, report.format, report.encoding, report.tokensBefore, report.tokensAfter, report.saved]).toEqual(['session.jsonl', 'claude', 'cl100k_base', before, after, before - after]);
    expect(report.savedPercent).toBe(Math.round(((before - after) / before) * 1000) / 10);
    expect(report.missing).toEqual([]);
  });

  it('--out writes the compacted Markdown, but never inside the memory directory', async () => {
    const cwd = project();
    const report = await compact({ file: 'session.jsonl', out: 'compact.md', keepLast: 10, encoding: 'o200k_base' }, deps(cwd));
    expect(readFileSync(join(cwd, 'compact.md'), 'utf8')).toBe(report.result.markdown);
    mkdirSync(join(cwd, '.memory'));
    await expect(compact({ file: 'session.jsonl', out: '.memory/compact.md', keepLast: 10, encoding: 'o200k_base' }, deps(cwd, join(cwd, '.memory')))).rejects.toThrow(/memory director/);
    expect(existsSync(join(cwd, '.memory/compact.md'))).toBe(false);
  });

  it('stdin is named stdin; binary bytes on it are refused', async () => {
    const cwd = tempDir();
    const text = readFileSync(SESSION);
    const report = await compact({ file: '-', keepLast: 10, encoding: 'o200k_base' }, { ...deps(cwd), readStdin: async () => text });
    expect(report.result.markdown.split('\n')[0]).toBe('# Transcript: stdin (compacted by memctx)');
    await expect(compact({ file: '-', keepLast: 10, encoding: 'o200k_base' }, { ...deps(cwd), readStdin: async () => Buffer.from('a\0b') })).rejects.toMatchObject({ message: 'looks like a binary file (a NUL byte at offset 1), not a transcript', file: 'stdin' });
  });
});
