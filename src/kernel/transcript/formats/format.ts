/** What every transcript format gives the registry (`../registry.ts`): its name, how to tell it, how to read it, how to extract a session from it. */
import type { SessionFacts } from '../extract.js';
import type { Transcript, TranscriptFormat } from '../types.js';

export interface TranscriptFormatModule {
  name: TranscriptFormat;
  /** Whether one parsed JSON line (or JSON document) is in this format. */
  detect: (record: Record<string, unknown>) => boolean;
  /** Pure: the file's text in, the common shape out. */
  read: (text: string, options?: { firstLine?: number }) => Transcript;
  /** What the session did (goal, progress, decisions, blockers, next steps, changed files). */
  extract: (t: Transcript, options?: { cwd?: string }) => SessionFacts;
}
