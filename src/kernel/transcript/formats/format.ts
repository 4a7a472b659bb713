/** What every transcript format is: its name and how to tell it (`../registry.ts`), how to read it, how to extract a session from it. */
import type { SessionFacts } from '../extract.js';
import type { FormatDetector } from '../registry.js';
import type { Transcript } from '../types.js';

export interface TranscriptFormatModule extends FormatDetector {
  /** Pure: the file's text in, the common shape out. */
  read: (text: string, options?: { firstLine?: number }) => Transcript;
  /** What the session did (goal, progress, decisions, blockers, next steps, changed files). */
  extract: (t: Transcript, options?: { cwd?: string }) => SessionFacts;
}
