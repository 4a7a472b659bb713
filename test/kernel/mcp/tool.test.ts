import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { defineTool, structuredResult, textResult, type ToolContext } from '../../../src/kernel/mcp/tool.js';

const ctx = { root: '/m', io: { cwd: '/p', env: {}, home: '/h', now: () => new Date(0) } } as ToolContext;

describe('defineTool', () => {
  const seen: unknown[] = [];
  const tool = defineTool({
    name: 'echo',
    title: 'Echo',
    description: 'says it back',
    input: v.strictObject({ word: v.string(), times: v.optional(v.number(), 1) }),
    annotations: { readOnlyHint: true },
    run: async (args, context) => {
      seen.push([args, context.root]);
      return textResult(args.word.repeat(args.times));
    },
  });

  it('keeps what the server lists and runs the handler on checked arguments, defaults filled in', async () => {
    expect({ name: tool.name, title: tool.title, description: tool.description, annotations: tool.annotations }).toEqual({ name: 'echo', title: 'Echo', description: 'says it back', annotations: { readOnlyHint: true } });
    expect(await tool.run({ word: 'hi' }, ctx)).toEqual({ content: [{ type: 'text', text: 'hi' }] });
    expect(seen).toEqual([[{ word: 'hi', times: 1 }, '/m']]);
  });

  it('refuses bad arguments before the handler runs, naming the argument as the model wrote it', () => {
    seen.length = 0;
    // Thrown as the call is made (the server awaits the call inside its try).
    expect(() => tool.run({ word: 'hi', loud: true }, ctx)).toThrow('unknown argument loud');
    expect(() => tool.run({ word: 3 }, ctx)).toThrow(/^word Invalid type: Expected string but received 3$/);
    expect(seen).toEqual([]);
  });

  it('checks with its own parse when it has one', async () => {
    const custom = defineTool({ name: 'c', title: 'C', description: 'd', input: v.object({}), annotations: {}, parse: (args) => String(args), run: async (args: string) => textResult(args) });
    expect(await custom.run(42, ctx)).toEqual({ content: [{ type: 'text', text: '42' }] });
  });
});

describe('textResult and structuredResult', () => {
  it('mark an error only when asked, and carry structured content beside its summary', () => {
    expect(textResult('no', true)).toEqual({ content: [{ type: 'text', text: 'no' }], isError: true });
    expect(textResult('ok', false)).toEqual({ content: [{ type: 'text', text: 'ok' }] });
    expect(structuredResult({ n: 1 }, 'one')).toEqual({ content: [{ type: 'text', text: 'one' }], structuredContent: { n: 1 } });
  });
});
