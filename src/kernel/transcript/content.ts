import { isRecord } from '../values.js';
import type { Role, TranscriptItem } from './types.js';

/** Text of a content value: a string, or a list of blocks (text, input_text, output_text; images as a marker). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return isRecord(content) && typeof content.text === 'string' ? content.text : '';
  const parts: string[] = [];
  for (const block of content) {
    if (typeof block === 'string') parts.push(block);
    else if (isRecord(block)) {
      if (typeof block.text === 'string' && block.type !== 'thinking') parts.push(block.text);
      else if (block.type === 'image' || block.type === 'image_url' || block.type === 'input_image') parts.push('[image]');
      else if (block.type === 'document') parts.push('[document]');
    }
  }
  return parts.join('\n');
}

/** A tool's input as the text it puts in the context. */
export function inputText(input: unknown): string {
  if (typeof input === 'string') return input;
  if (input === undefined) return '';
  return JSON.stringify(input);
}

/** Parse a JSON string argument (OpenAI/Codex `arguments`), keeping the string when it is not JSON. */
export function parseArguments(args: unknown): unknown {
  if (typeof args !== 'string') return args;
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

export function normalizeRole(role: unknown): Role {
  if (role === 'user' || role === 'human') return 'user';
  if (role === 'assistant' || role === 'ai' || role === 'model') return 'assistant';
  if (role === 'system' || role === 'developer') return 'system';
  if (role === 'tool' || role === 'function') return 'tool';
  return 'unknown';
}

/**
 * Items from Anthropic-style content blocks (text, tool_use, tool_result), as Claude Code and
 * Anthropic message arrays write them. `toolNames` maps tool ids to names across the transcript.
 */
export function blockItems(content: unknown, role: Role, line: number, toolNames: Map<string, string>): TranscriptItem[] {
  if (!Array.isArray(content)) {
    const text = contentText(content);
    return text ? [{ role, kind: 'message', text, line }] : [];
  }
  const items: TranscriptItem[] = [];
  let pending: string[] = [];
  const flush = () => {
    if (pending.length) items.push({ role, kind: 'message', text: pending.join('\n'), line });
    pending = [];
  };
  for (const block of content) {
    if (!isRecord(block)) {
      if (typeof block === 'string') pending.push(block);
      continue;
    }
    if (block.type === 'tool_use' || block.type === 'server_tool_use') {
      flush();
      const id = typeof block.id === 'string' ? block.id : undefined;
      const name = typeof block.name === 'string' ? block.name : 'tool';
      if (id) toolNames.set(id, name);
      items.push({ role: 'assistant', kind: 'tool_call', text: inputText(block.input), line, toolName: name, toolInput: block.input, toolId: id });
    } else if (block.type === 'tool_result' || (typeof block.type === 'string' && block.type.endsWith('_tool_result'))) {
      flush();
      const id = typeof block.tool_use_id === 'string' ? block.tool_use_id : undefined;
      const item: TranscriptItem = { role: 'tool', kind: 'tool_result', text: contentText(block.content), line, toolId: id };
      const name = id ? toolNames.get(id) : undefined;
      if (name) item.toolName = name;
      if (block.is_error === true) item.isError = true;
      items.push(item);
    } else {
      const text = contentText([block]);
      if (text) pending.push(text);
    }
  }
  flush();
  return items;
}
