/**
 * The user's own agent in its headless mode, asked once for the six fields (`--summarize-with
 * claude|codex` at SessionEnd): how it is started (one turn, no tools, no hooks, nothing saved) and
 * how its printed answer is read. Pure: no process is started here.
 */
import type { SummaryAgent } from '../../kernel/summary/summarizers.js';
import { isRecord } from '../../kernel/values.js';

/** What the headless agent is told it is (Claude Code's own system prompt is not needed for this). */
const SYSTEM_PROMPT = 'You summarize a finished coding-agent session for the next session to resume from. Answer with one JSON object and nothing else. Use no tools.';

/**
 * The program and its arguments; the prompt goes on stdin. The program is the agent's own name,
 * found on PATH as the hook's environment has it (never a command from a file).
 * - claude: print mode, JSON result, one turn, no tools, low effort (little thinking: the answer is
 *   ~500 tokens); `--safe-mode` runs no hooks, MCP servers or CLAUDE.md (the login still works, unlike
 *   `--bare`); nothing is saved as a session.
 * - codex: `exec` with the prompt on stdin, JSONL events, read-only sandbox, hooks off, nothing saved.
 */
export function headlessCommand(agent: SummaryAgent): { file: string; args: string[]; label: string } {
  if (agent === 'claude') {
    return {
      file: 'claude',
      args: ['-p', '--output-format', 'json', '--max-turns', '1', '--tools', '', '--safe-mode', '--no-session-persistence', '--effort', 'low', '--system-prompt', SYSTEM_PROMPT],
      label: 'claude -p',
    };
  }
  return { file: 'codex', args: ['exec', '--ephemeral', '--disable', 'hooks', '--sandbox', 'read-only', '--skip-git-repo-check', '--json', '-'], label: 'codex exec' };
}

export interface HeadlessAnswer {
  /** The model's final text. */
  text: string;
  /** What the agent reported it used, when it did: input (cache included) and output tokens. */
  usage?: { input: number; output: number };
}

/** The final text of the agent's printed output, or why there is none. */
export function readHeadlessOutput(agent: SummaryAgent, stdout: string): HeadlessAnswer | { why: string } {
  return agent === 'claude' ? readClaude(stdout) : readCodex(stdout);
}

const num = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/** `claude -p --output-format json`: one result object. */
function readClaude(stdout: string): HeadlessAnswer | { why: string } {
  let result: Record<string, unknown>;
  try {
    result = JSON.parse(stdout.trim()) as Record<string, unknown>;
  } catch {
    return { why: `its output is not the JSON result of --output-format json (${oneLine(stdout)})` };
  }
  if (typeof result?.result !== 'string') return { why: `its JSON result has no "result" text (${oneLine(stdout)})` };
  if (result.is_error === true) return { why: `it reported an error: ${oneLine(result.result)}` };
  const usage = result.usage as Record<string, unknown> | undefined;
  const input = num(usage?.input_tokens) + num(usage?.cache_creation_input_tokens) + num(usage?.cache_read_input_tokens);
  return { text: result.result, ...(usage ? { usage: { input, output: num(usage.output_tokens) } } : {}) };
}

/** `codex exec --json`: JSONL events; the last agent message, the turn's usage. */
function readCodex(stdout: string): HeadlessAnswer | { why: string } {
  let text: string | undefined;
  let usage: HeadlessAnswer['usage'];
  let failed: string | undefined;
  for (const event of jsonLines(stdout)) {
    const item = isRecord(event.item) ? event.item : {};
    const error = isRecord(event.error) ? event.error : {};
    if (event.type === 'item.completed' && item.type === 'agent_message' && typeof item.text === 'string') text = item.text;
    else if (event.type === 'turn.completed' && isRecord(event.usage)) usage = { input: num(event.usage.input_tokens), output: num(event.usage.output_tokens) };
    else if (event.type === 'turn.failed' || event.type === 'error') failed = [error.message, event.message].find((m): m is string => typeof m === 'string') ?? 'error';
  }
  if (text === undefined) return { why: failed ? `it reported an error: ${oneLine(failed)}` : `its output holds no agent message (${oneLine(stdout)})` };
  return { text, ...(usage ? { usage } : {}) };
}

/** The JSON objects of a JSONL text; other lines skipped. */
function jsonLines(text: string): Record<string, unknown>[] {
  return text.split('\n').flatMap((line) => {
    try {
      const value = JSON.parse(line) as unknown;
      return isRecord(value) ? [value] : [];
    } catch {
      return [];
    }
  });
}

function oneLine(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 120 ? `${line.slice(0, 120)}…` : line || 'nothing';
}
