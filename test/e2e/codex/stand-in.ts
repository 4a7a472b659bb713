// A scripted stand-in for the OpenAI Responses API, as Codex calls it through a custom provider with
// `wire_api = "responses"`: loopback only, a random free port, Node's http only. Each POST /v1/responses
// gets the next scripted turn (output items) as a stream that ends with `response.completed` and its
// usage. Every request is recorded.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { shownText } from '../../helpers/shown-text.js';

export type Item =
  | { type: 'message'; text: string }
  /** A function call (exec_command, update_plan, …); `arguments` is sent as JSON. */
  | { type: 'function_call'; name: string; arguments: unknown; call_id?: string; namespace?: string }
  /** Codex's client-side `tool_search`: its output offers the deferred (MCP) tools that match the query. */
  | { type: 'tool_search_call'; arguments: { query: string; limit?: number }; call_id?: string };

export interface Turn {
  items: Item[];
  /** Input tokens this response reports (what Codex records as the context used). */
  inputTokens?: number;
  /** Think this long before answering (a model's latency), in ms. */
  delayMs?: number;
}

export interface StandInOptions {
  /** A function is given the request body, to answer from what the model was shown. */
  turns: Array<Turn | ((body: any) => Turn)>;
  finalText?: string;
  /** The answer to memctx's background summary request (`codex exec` asked for the six fields at SessionEnd); not a scripted turn. */
  summary?: Turn;
}

export interface StandIn {
  url: string;
  requests: Array<{ path: string; body: any }>;
  close(): Promise<void>;
}

export async function startStandIn(options: StandInOptions): Promise<StandIn> {
  const requests: StandIn['requests'] = [];
  let next = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let body: any;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = undefined;
      }
      const path = (req.url ?? '/').split('?')[0];
      requests.push({ path, body });
      if (req.method !== 'POST' || !path.endsWith('/responses')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"error":{"message":"not found"}}');
        return;
      }
      const summary = options.summary && inputText(body).includes('Summarize this coding-agent session, which has just ended') ? options.summary : undefined;
      const scripted = summary ?? options.turns[next++];
      const turn = typeof scripted === 'function' ? scripted(body) : scripted ?? { items: [{ type: 'message', text: options.finalText ?? 'Done.' }] };
      const n = requests.length;
      const answer = () => {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        const send = (data: { type: string }) => res.write(`event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`);
        send({ type: 'response.created', response: { id: `resp_${n}` } } as { type: string });
        turn.items.forEach((item, i) => {
          const wire =
            item.type === 'message'
              ? { type: 'message', id: `msg_${n}_${i}`, role: 'assistant', content: [{ type: 'output_text', text: item.text, annotations: [] }] }
              : item.type === 'tool_search_call'
                ? { type: 'tool_search_call', id: `ts_${n}_${i}`, call_id: item.call_id ?? `call_${n}_${i}`, execution: 'client', status: 'completed', arguments: item.arguments }
                : { type: 'function_call', id: `fc_${n}_${i}`, call_id: item.call_id ?? `call_${n}_${i}`, name: item.name, ...(item.namespace ? { namespace: item.namespace } : {}), arguments: JSON.stringify(item.arguments) };
          send({ type: 'response.output_item.done', output_index: i, item: wire } as { type: string });
        });
        const input = turn.inputTokens ?? 1000;
        send({ type: 'response.completed', response: { id: `resp_${n}`, usage: { input_tokens: input, input_tokens_details: { cached_tokens: 0 }, output_tokens: 10, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: input + 10 } } } as { type: string });
        res.end();
      };
      if (turn.delayMs) setTimeout(answer, turn.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Every text the model was shown in a request's input. */
export function inputText(body: any): string {
  return shownText([body?.input], ['text', 'output']);
}
