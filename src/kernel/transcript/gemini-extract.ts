/** Gemini CLI's part in session extraction: write_todos task lists. */
import { extractSession, plainRequest, type ExtractProfile, type SessionFacts } from './extract.js';
import { planItems } from './tasks.js';
import { isRecord } from '../values.js';
import type { Transcript } from './types.js';

const geminiProfile: ExtractProfile = {
  request: plainRequest,
  tasks(call) {
    if (call.toolName !== 'write_todos' || !isRecord(call.toolInput)) return undefined;
    return { list: planItems(call.toolInput.todos, ['description', 'content']) };
  },
};

export function extractGeminiSession(t: Transcript, options: { cwd?: string } = {}): SessionFacts {
  return extractSession(t, geminiProfile, options);
}
