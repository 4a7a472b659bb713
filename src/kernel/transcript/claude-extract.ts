/** Claude Code's part in session extraction: slash-command wrappers, and TodoWrite / TaskCreate / TaskUpdate task lists. */
import { extractSession, plainRequest, type ExtractProfile, type SessionFacts } from './extract.js';
import { claudeTaskEvent } from './tasks.js';
import type { Transcript } from './types.js';

/** Built-in commands that ask for nothing by themselves. */
const NO_REQUEST = new Set(['clear', 'compact', 'model', 'login', 'logout', 'exit', 'quit', 'resume', 'config', 'cost', 'help', 'context', 'mcp', 'memory', 'permissions', 'statusline', 'ide', 'hooks', 'agents', 'doctor', 'vim', 'theme', 'status', 'usage', 'rewind', 'export']);

/** `<command-name>/review</command-name>…<command-args>123</command-args>` → `/review 123`. */
function claudeCommand(text: string): string | undefined {
  const name = /<command-name>\s*([^<]*?)\s*<\/command-name>/.exec(text)?.[1];
  if (!name) return undefined;
  const args = /<command-args>([\s\S]*?)<\/command-args>/.exec(text)?.[1]?.trim() ?? '';
  const bare = name.replace(/^\//, '');
  if (!args && NO_REQUEST.has(bare)) return '';
  return `/${bare}${args ? ` ${args.replace(/\s+/g, ' ')}` : ''}`.slice(0, 300);
}

export const claudeProfile: ExtractProfile = {
  request(text) {
    const command = claudeCommand(text);
    if (command !== undefined) return command || undefined;
    return plainRequest(text);
  },
  tasks: claudeTaskEvent,
};

export function extractClaudeSession(t: Transcript, options: { cwd?: string } = {}): SessionFacts {
  return extractSession(t, claudeProfile, options);
}
