import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractFacts, readTranscript, transcriptFormat } from '../../../src/kernel/transcript/index.js';
import { formatModule, readTranscriptWith } from '../../../src/kernel/transcript/reader.js';
import { TRANSCRIPT_FORMATS } from '../../../src/kernel/transcript/types.js';
import { REPO } from '../../helpers/cli.js';

const FIXTURES = join(REPO, 'fixtures', 'transcripts');
const files = readdirSync(FIXTURES, { withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name);

describe('readTranscriptWith', () => {
  it.each(files)('reads %s as readTranscript does, with the module of its format', async (name) => {
    const text = readFileSync(join(FIXTURES, name), 'utf8');
    const { transcript, format } = await readTranscriptWith(text);
    expect(transcript).toEqual(readTranscript(text));
    expect(format).toBe(transcriptFormat(transcript.format));
    expect(format.extract(transcript, { cwd: '/p' })).toEqual(extractFacts(transcript, { cwd: '/p' }));
  });

  it('ignores a leading byte-order mark and takes the format given', async () => {
    const line = JSON.stringify({ type: 'user', message: { role: 'user', content: 'hello' }, sessionId: 's1', timestamp: '2026-11-21T10:00:00Z' });
    const claude = await readTranscriptWith(`\ufeff${line}\n`);
    expect(claude.transcript.format).toBe('claude');
    expect(claude.transcript.items.map((i) => [i.role, i.text])).toEqual([['user', 'hello']]);
    expect((await readTranscriptWith(`${line}\n`, { format: 'text' })).transcript.format).toBe('text');
  });
});

describe('formatModule', () => {
  it.each(TRANSCRIPT_FORMATS)('gives the module index.ts binds to %s', async (name) => {
    expect(await formatModule(name)).toBe(transcriptFormat(name));
  });
});
