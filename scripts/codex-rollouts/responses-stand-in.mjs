/**
 * A local stand-in for the OpenAI Responses API that the real Codex CLI talks to: each POST to
 * /v1/responses is answered, as server-sent events, with the next turn of a scripted scenario (a JSON
 * array of turns, each a list of output items: messages, function calls, custom tool calls), then
 * `response.completed`. The Codex CLI runs the tools itself and writes a genuine rollout.
 *
 *   node responses-stand-in.mjs PORT SCENARIO.json
 */
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

const [port, scenarioPath] = process.argv.slice(2);
const turns = JSON.parse(readFileSync(scenarioPath, 'utf8'));
let request = 0;

createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    if (req.method !== 'POST' || !req.url.endsWith('/responses')) {
      res.writeHead(404).end();
      return;
    }
    const turn = turns[Math.min(request, turns.length - 1)];
    const id = `resp_${++request}`;
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const send = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    send('response.created', { response: { id } });
    turn.forEach((item, i) => send('response.output_item.done', { output_index: i, item: { id: `item_${request}_${i}`, status: 'completed', ...item } }));
    const used = 1200 * request;
    send('response.completed', { response: { id, usage: { input_tokens: used, input_tokens_details: { cached_tokens: 0 }, output_tokens: 50, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: used + 50 } } });
    res.end();
  });
}).listen(Number(port), '127.0.0.1');
