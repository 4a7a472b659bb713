/** `memctx compact`: a transcript compacted to Markdown, with the tokens it saves and the marked lines it lost. */
import { resolve } from 'node:path';
import { compactTranscript, missingMarkedLines, type CompactResult, type MarkedLine } from '../../kernel/capacity/compact.js';
import type { EncodingName } from '../../kernel/tokens/encodings.js';
import { readTranscript } from '../../kernel/transcript/index.js';
import type { CompactRequest } from './schema.js';
import { assertText, readTranscriptText } from '../../kernel/sources/transcript-file.js';
import { writeOutputFile } from '../../kernel/store/write.js';

/** What `compact` does, checked by its schema (schemas/compact.ts). */
export type CompactOptions = CompactRequest;

export interface CompactDeps {
  cwd: string;
  readStdin: () => Promise<Buffer>;
  /** The memory directory, when one is found: `out` may not be inside it. */
  memoryRoot: () => string | undefined;
}

export interface CompactReport {
  /** The transcript's name: its path as typed, or stdin. */
  name: string;
  format: string;
  encoding: EncodingName;
  tokensBefore: number;
  tokensAfter: number;
  saved: number;
  savedPercent: number;
  result: CompactResult;
  /** Marked lines that did not survive compaction. */
  missing: MarkedLine[];
  /** What the reader noticed about the transcript. */
  notes: string[];
}

export async function compact(options: CompactOptions, deps: CompactDeps): Promise<CompactReport> {
  const { format, keepLast, encoding } = options;

  let text: string;
  let name: string;
  if (options.file === '-') {
    const bytes = await deps.readStdin();
    name = 'stdin';
    assertText(bytes, name);
    text = bytes.toString('utf8');
  } else {
    text = readTranscriptText(resolve(deps.cwd, options.file), options.file);
    name = options.file;
  }
  const transcript = readTranscript(text, { format });
  const header = [`# Transcript: ${name} (compacted by memctx)`];
  const before = compactTranscript(transcript, { verbatim: true, header });
  const after = compactTranscript(transcript, { keepLast, header });
  const missing = missingMarkedLines(after.markdown, after.marked);
  const { loadTokenCounter } = await import('../../kernel/tokens/index.js');
  const counter = await loadTokenCounter(encoding);
  const tokensBefore = counter.count(before.markdown);
  const tokensAfter = counter.count(after.markdown);
  const saved = tokensBefore - tokensAfter;
  const savedPercent = tokensBefore ? Math.round((saved / tokensBefore) * 1000) / 10 : 0;

  if (options.out !== undefined) {
    // Inside no memory directory (when one is found): a compacted transcript is not a memory file.
    await writeOutputFile(resolve(deps.cwd, options.out), after.markdown, { name: options.out, memoryRoot: deps.memoryRoot() });
  }
  return { name, format: transcript.format, encoding, tokensBefore, tokensAfter, saved, savedPercent, result: after, missing, notes: transcript.notes.map((n) => n.message) };
}
