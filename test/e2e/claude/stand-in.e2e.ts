// The stand-in itself: streamed and plain answers, the agent script, side requests, recording.
import { afterEach, describe, expect, it } from 'vitest';
import { unavailable } from './harness.js';
import { startStandIn, type StandIn } from './stand-in.js';

async function post(standIn: StandIn, path: string, body: unknown): Promise<{ status: number; type: string; text: string }> {
  const response = await fetch(standIn.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, type: response.headers.get('content-type') ?? '', text: await response.text() };
}

const TOOLS = [{ name: 'Write', input_schema: { type: 'object' } }];

describe.skipIf(unavailable)('the Messages API stand-in', () => {
  let standIn: StandIn;
  afterEach(() => standIn?.close());

  it('streams the scripted turn as server-sent events, tool input as input_json_delta', async () => {
    standIn = await startStandIn({ turns: [{ content: [{ type: 'text', text: 'Hi' }, { type: 'tool_use', id: 'toolu_1', name: 'Write', input: { a: 1 } }] }], usage: { input_tokens: 7 } });
    const answer = await post(standIn, '/v1/messages', { model: 'm', stream: true, tools: TOOLS, messages: [{ role: 'user', content: 'go' }] });
    expect(answer.type).toBe('text/event-stream');
    const events = answer.text.trim().split('\n\n').map((chunk) => {
      const [event, data] = chunk.split('\n');
      return [event.slice('event: '.length), JSON.parse(data.slice('data: '.length))];
    });
    expect(events.map(([event]) => event)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(events[0][1].message.usage).toEqual({ input_tokens: 7, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
    expect(events[2][1].delta).toEqual({ type: 'text_delta', text: 'Hi' });
    expect(events[4][1].content_block).toEqual({ type: 'tool_use', id: 'toolu_1', name: 'Write', input: {} });
    expect(events[5][1].delta).toEqual({ type: 'input_json_delta', partial_json: '{"a":1}' });
    expect(events[7][1]).toEqual({ type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 40 } });
  });

  it('answers plain JSON when stream is false; requests without tools get the side text; everything is recorded', async () => {
    standIn = await startStandIn({ turns: [{ content: [{ type: 'text', text: 'scripted' }] }], sideText: 'A title' });
    const side = JSON.parse((await post(standIn, '/v1/messages', { model: 'm', messages: [{ role: 'user', content: 'name this' }] })).text);
    expect([side.type, side.content, side.stop_reason]).toEqual(['message', [{ type: 'text', text: 'A title' }], 'end_turn']);
    const agent = JSON.parse((await post(standIn, '/v1/messages', { model: 'm', tools: TOOLS, messages: [] })).text);
    expect(agent.content).toEqual([{ type: 'text', text: 'scripted' }]);
    const after = JSON.parse((await post(standIn, '/v1/messages', { model: 'm', tools: TOOLS, messages: [] })).text);
    expect(after.content).toEqual([{ type: 'text', text: 'Done.' }]);
    expect((await post(standIn, '/v1/other', {})).status).toBe(404);
    expect(standIn.requests.map((r) => [r.path, r.agent, r.turn])).toEqual([
      ['/v1/messages', false, undefined],
      ['/v1/messages', true, 0],
      ['/v1/messages', true, undefined],
      ['/v1/other', false, undefined],
    ]);
  });
});
