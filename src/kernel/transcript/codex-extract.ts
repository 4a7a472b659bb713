/** Codex's part in session extraction: AGENTS.md and environment preambles, and update_plan task lists. */
import { parseArguments } from './content.js';
import { extractSession, plainRequest, type ExtractProfile, type SessionFacts } from './extract.js';
import { planItems } from './tasks.js';
import { isRecord } from '../values.js';
import type { Transcript } from './types.js';

export const codexProfile: ExtractProfile = {
  request: plainRequest,
  tasks(call) {
    if (call.toolName !== 'update_plan') return undefined;
    const input = parseArguments(call.toolInput);
    return isRecord(input) ? { list: planItems(input.plan, ['step', 'description']) } : undefined;
  },
};

export function extractCodexSession(t: Transcript, options: { cwd?: string } = {}): SessionFacts {
  return extractSession(t, codexProfile, options);
}
