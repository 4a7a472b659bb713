/**
 * `memctx merge-index BASE OURS THEIRS [PATH]`: git's merge driver for MEMORY.md. Git passes the
 * common ancestor, our version and theirs as temporary files (%O %A %B) and the file's path (%P);
 * the merged text replaces OURS. Both sides' hand-written text is kept and the generated block is
 * rebuilt from both sides' entries (memindex/three-way.ts), so two branches that each add a memory
 * never conflict in MEMORY.md; two sides that change the same hand-written line do, between markers.
 */
import { resolve } from 'node:path';
import { readRegularFile, MAX_INPUT_BYTES } from '../../kernel/store/read-file.js';
import { decodeText, DecodeFailure } from '../../kernel/store/decode.js';
import { MAX_FILE_BYTES } from '../../kernel/store/layout.js';
import { writeFileAtomic } from '../../kernel/store/write.js';
import { mergeIndexTexts } from '../../kernel/memindex/three-way.js';
import { conflictMarkerLines } from '../../kernel/markdown/conflicts.js';

export interface MergeIndexOptions {
  cwd: string;
  base: string;
  ours: string;
  theirs: string;
  /** The file's path in the repository (git's %P); MEMORY.md when the driver was registered without it. */
  path?: string;
}

export interface MergeIndexResult {
  /** The file merged, as the user knows it (git's %P, else MEMORY.md); the text went to git's %A. */
  file: string;
  /** Lines of the merged text that hold conflict markers (both sides changed a line, a side carried them in, or a version was refused). */
  conflictMarkers: number[];
  /** Why a version was not merged; then both sides' whole texts are left between conflict markers. */
  refused?: string;
}

type Side = 'base' | 'ours' | 'theirs';

/** A version as text, or why it is not merged (over the size limit, binary, not UTF-8). */
function asText(bytes: Buffer): { text?: string; why?: string } {
  if (bytes.length > MAX_FILE_BYTES) return { why: `is ${bytes.length} bytes, over the ${MAX_FILE_BYTES}-byte limit for MEMORY.md` };
  try {
    return { text: decodeText(bytes) };
  } catch (err) {
    if (err instanceof DecodeFailure) return { why: `holds ${err.message}${err.line ? ` (line ${err.line})` : ''}` };
    throw err;
  }
}

/**
 * Both whole versions between git's markers: a refused version is never merged, and never dropped
 * either, since git takes what is left in OURS as the merge's result at the next `git add`.
 */
function wholeConflict(ours: Buffer, theirs: Buffer): Buffer {
  const eol = ours.includes('\r\n') ? '\r\n' : '\n';
  const ended = (b: Buffer) => (b.length === 0 || b[b.length - 1] === 0x0a ? b : Buffer.concat([b, Buffer.from(eol)]));
  return Buffer.concat([Buffer.from(`<<<<<<< ours${eol}`), ended(ours), Buffer.from(`=======${eol}`), ended(theirs), Buffer.from(`>>>>>>> theirs${eol}`)]);
}

export async function mergeIndex(options: MergeIndexOptions): Promise<MergeIndexResult> {
  const file = options.path ?? 'MEMORY.md';
  const sides: Side[] = ['base', 'ours', 'theirs'];
  const bytes = sides.map((side) => readRegularFile(resolve(options.cwd, options[side]), { name: `${file} (${side})`, maxBytes: MAX_INPUT_BYTES, what: 'MEMORY.md version' }));
  const texts = bytes.map(asText);
  const refusedAt = texts.findIndex((t) => t.why !== undefined);
  const target = resolve(options.cwd, options.ours);
  if (refusedAt !== -1) {
    const merged = wholeConflict(bytes[1], bytes[2]);
    await writeFileAtomic(target, merged, { mkdir: false });
    return { file, conflictMarkers: conflictMarkerLines(merged.toString('latin1')), refused: `${sides[refusedAt]}'s version ${texts[refusedAt].why}` };
  }
  const merged = mergeIndexTexts(texts[0].text!, texts[1].text!, texts[2].text!);
  await writeFileAtomic(target, merged.text, { mkdir: false });
  return { file, conflictMarkers: conflictMarkerLines(merged.text) };
}
