/**
 * A transcript read with its own format's module only (issue 31: `flush --hook`'s start-up): Claude
 * Code's reader comes with this module, the other formats' readers (index.ts) only for their
 * transcripts. The result is index.ts's readTranscript's, with the module that read it, whose
 * `extract` tells what the session did.
 */
import { transcriptBody } from './detect.js';
import { claudeFormat } from './formats/claude.js';
import type { TranscriptFormatModule } from './formats/format.js';
import type { Transcript, TranscriptFormat } from './types.js';
import { loadModule } from '../load.js';

/** A format's module; only a format other than Claude Code's loads the readers. */
export async function formatModule(name: TranscriptFormat): Promise<TranscriptFormatModule> {
  return name === 'claude' ? claudeFormat : (await loadModule('./index.js', import.meta.url, () => import('./index.js'))).transcriptFormat(name);
}

/** Read a transcript's text (any supported format; a leading BOM is ignored), as readTranscript does. */
export async function readTranscriptWith(text: string, options: { format?: TranscriptFormat } = {}): Promise<{ transcript: Transcript; format: TranscriptFormatModule }> {
  const { body, format: name } = transcriptBody(text, options.format);
  const format = await formatModule(name);
  return { transcript: format.read(body), format };
}
