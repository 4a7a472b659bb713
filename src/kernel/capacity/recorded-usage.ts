/**
 * The status line's figure from a transcript when Claude Code sends none of its own: the last usage the
 * agent recorded, found from the file's end (only the format check reads its start). Loaded only then.
 */
import { resolve } from 'node:path';
import { openTranscriptFile } from '../sources/transcript-file.js';
import { detectFormat } from '../transcript/detect.js';
import { scanUsage } from '../transcript/usage.js';

/** The tokens in use by a transcript's last recorded usage, its recorded window and model; undefined when it records none. */
export function fromTranscript(path: string, cwd: string): { used: number; recordedWindow?: number; model?: string } | undefined {
  const f = openTranscriptFile(resolve(cwd, path));
  try {
    const head = f.firstLines(16384);
    const r = scanUsage(detectFormat(head.text, { complete: head.complete }), f.linesBackward());
    return r?.usage ? { used: r.usage.used, recordedWindow: r.usage.window, model: r.usage.model ?? r.model } : undefined;
  } finally {
    f.close();
  }
}
