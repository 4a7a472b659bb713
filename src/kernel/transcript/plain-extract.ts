/** OpenAI-style message lists and plain text: no task list of their own; a `todos`/`plan` tool is read like Claude's and Codex's. */
import { claudeProfile } from './claude-extract.js';
import { codexProfile } from './codex-extract.js';
import { extractSession, plainRequest, type ExtractProfile, type SessionFacts } from './extract.js';
import type { Transcript } from './types.js';

const plainProfile: ExtractProfile = {
  request: plainRequest,
  tasks: (call) => claudeProfile.tasks(call) ?? codexProfile.tasks(call),
};

export function extractPlainSession(t: Transcript, options: { cwd?: string } = {}): SessionFacts {
  return extractSession(t, plainProfile, options);
}
