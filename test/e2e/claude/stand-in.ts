// A scripted stand-in for the Anthropic Messages API: loopback only, a random free port, Node's http only.
// Requests that carry tools are the agent loop and get the next scripted assistant turn; every other
// request (titles, summaries, compaction) gets a short text. Every request is recorded.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { shownText } from '../../helpers/shown-text.js';

export type Block =
  | { type: 'text'; text: string }
  /** `input` is sent as JSON; `rawInput` (a string) is sent as the input_json_delta as it is, to test malformed input. */
  | { type: 'tool_use'; name: string; input?: unknown; rawInput?: string; id?: string };

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

export interface Turn {
  content: Block[];
  /** Overrides the stand-in's default usage for this response. */
  usage?: Partial<Usage>;
}

export interface RecordedRequest {
  method: string;
  path: string;
  body: any;
  /** True when the request carried tools (an agent-loop turn). */
  agent: boolean;
  /** The scripted turn index it was answered with, when it was an agent turn. */
  turn?: number;
  /** True for a compaction (summary) request. */
  compaction?: boolean;
  /** True for memctx's background summary request. */
  summary?: boolean;
}

export interface StandInOptions {
  /**
   * The agent loop's assistant turns, in order (a function is given the request body, to answer from
   * what the model was shown); after the last one the stand-in answers `finalText`.
   */
  turns: Array<Turn | ((body: any) => Turn)>;
  /** Default usage of every response (per-turn `usage` overrides). */
  usage?: Partial<Usage>;
  finalText?: string;
  /** Text for requests without tools (titles, summaries). */
  sideText?: string;
  /** The answer to a compaction request (it carries tools but asks for a text-only summary). */
  compactionText?: string;
  /** The answer to memctx's background summary request (`claude -p` asked for the six fields at SessionEnd). */
  summaryText?: string;
  /** Answer that request only after this many milliseconds (to outlast memctx's time limit). */
  summaryDelayMs?: number;
  model?: string;
}

export interface StandIn {
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** Requests that carried tools, in order. */
  agentRequests(): RecordedRequest[];
  close(): Promise<void>;
}

const DEFAULT_USAGE: Usage = { input_tokens: 1200, output_tokens: 40, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

export async function startStandIn(options: StandInOptions): Promise<StandIn> {
  const requests: RecordedRequest[] = [];
  const baseUsage: Usage = { ...DEFAULT_USAGE, ...options.usage };
  let nextTurn = 0;
  let messageCount = 0;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: any = undefined;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        body = raw;
      }
      const path = (req.url ?? '/').split('?')[0];
      const record: RecordedRequest = { method: req.method ?? 'GET', path, body, agent: false };
      requests.push(record);
      const delay = isSummaryRequest(body) ? (options.summaryDelayMs ?? 0) : 0;
      const send = () => {
        try {
          answer(res, record);
        } catch (error) {
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: String(error) } }));
        }
      };
      if (delay > 0) setTimeout(send, delay);
      else send();
    });
  });

  function answer(res: ServerResponse, record: RecordedRequest): void {
    if (record.method === 'POST' && record.path === '/v1/messages/count_tokens') {
      json(res, { input_tokens: baseUsage.input_tokens });
      return;
    }
    if (record.method !== 'POST' || record.path !== '/v1/messages') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `no ${record.path}` } }));
      return;
    }
    const body = record.body ?? {};
    const hasTools = Array.isArray(body.tools) && body.tools.length > 0;
    let turn: Turn;
    if (isSummaryRequest(body)) {
      record.summary = true;
      turn = { content: [{ type: 'text', text: options.summaryText ?? 'No summary scripted.' }] };
    } else if (isCompaction(body)) {
      record.compaction = true;
      turn = { content: [{ type: 'text', text: options.compactionText ?? '<analysis>Scripted.</analysis>\n<summary>1. Primary Request and Intent: scripted session.</summary>' }] };
    } else if (hasTools) {
      record.agent = true;
      if (nextTurn < options.turns.length) {
        record.turn = nextTurn;
        const next = options.turns[nextTurn++];
        turn = typeof next === 'function' ? next(body) : next;
      } else {
        turn = { content: [{ type: 'text', text: options.finalText ?? 'Done.' }] };
      }
    } else {
      turn = { content: [{ type: 'text', text: options.sideText ?? 'Scripted session' }] };
    }
    const usage: Usage = { ...baseUsage, ...turn.usage };
    const id = `msg_standin_${String(++messageCount).padStart(4, '0')}`;
    const model = typeof body.model === 'string' ? body.model : (options.model ?? 'claude-sonnet-4-5-20250929');
    const blocks = turn.content.map((block, i) =>
      block.type === 'tool_use' ? { ...block, id: block.id ?? `toolu_standin_${messageCount}_${i}` } : block,
    );
    const stopReason = blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn';
    if (body.stream) stream(res, id, model, blocks, usage, stopReason);
    else
      json(res, {
        id,
        type: 'message',
        role: 'assistant',
        model,
        content: blocks.map((b) =>
          b.type === 'text' ? b : { type: 'tool_use', id: b.id, name: b.name, input: b.rawInput !== undefined ? safeParse(b.rawInput) : (b.input ?? {}) },
        ),
        stop_reason: stopReason,
        stop_sequence: null,
        usage,
      });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    agentRequests: () => requests.filter((r) => r.agent),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** memctx's background summary request (summary-job.ts's prompt), with no tools. */
function isSummaryRequest(body: any): boolean {
  return !(Array.isArray(body?.tools) && body.tools.length > 0) && requestText(body).includes('Summarize this coding-agent session, which has just ended');
}

/** Claude Code's compaction request: its last user message asks for a text-only summary of the conversation. */
function isCompaction(body: any): boolean {
  const last = Array.isArray(body.messages) ? body.messages[body.messages.length - 1] : undefined;
  const text = typeof last?.content === 'string' ? last.content : Array.isArray(last?.content) ? last.content.map((part: any) => part?.text ?? '').join('\n') : '';
  return /create a detailed summary of the conversation/.test(text);
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}

function json(res: ServerResponse, value: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

function stream(res: ServerResponse, id: string, model: string, blocks: Block[], usage: Usage, stopReason: string): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  send('message_start', {
    type: 'message_start',
    message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } },
  });
  blocks.forEach((block, index) => {
    if (block.type === 'text') {
      send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } });
    } else {
      send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
      const partial = block.rawInput ?? JSON.stringify(block.input ?? {});
      send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: partial } });
    }
    send('content_block_stop', { type: 'content_block_stop', index });
  });
  send('message_delta', { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } });
  send('message_stop', { type: 'message_stop' });
  res.end();
}

/** Every piece of text a request showed the model: system blocks, message texts, tool results. */
export function requestText(body: any): string {
  return shownText([body?.system, body?.messages]);
}
