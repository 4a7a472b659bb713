import { describe, expect, it } from 'vitest';
import { deserializeMessage, ReadBuffer } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { LineBuffer } from '../../../src/commands/mcp/line-buffer.js';

const drain = (b: { readMessage(): unknown }) => {
  const out: unknown[] = [];
  for (let m = b.readMessage(); m !== null; m = b.readMessage()) out.push(m);
  return out;
};

describe('LineBuffer reads messages as the SDK ReadBuffer does', () => {
  it('splits, joins and strips CR the same way, over any chunking', () => {
    const text = '{"jsonrpc":"2.0","id":1,"method":"ping"}\r\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n{"jsonrpc":"2.0","id":3,';
    for (const size of [1, 3, 7, 40, 1000]) {
      const ours = new LineBuffer(1 << 20, deserializeMessage);
      const sdk = new ReadBuffer();
      const got: unknown[] = [];
      const want: unknown[] = [];
      for (let i = 0; i < text.length; i += size) {
        const chunk = Buffer.from(text.slice(i, i + size));
        ours.append(chunk);
        sdk.append(chunk);
        got.push(...drain(ours));
        want.push(...drain(sdk));
      }
      expect(got).toEqual(want);
      expect(got).toHaveLength(3);
    }
  });

  it('throws past its limit and starts empty again', () => {
    const b = new LineBuffer(10, deserializeMessage);
    expect(() => b.append(Buffer.alloc(11))).toThrow('ReadBuffer exceeded maximum size of 10 bytes');
    b.append(Buffer.from('{"a":1}'));
    expect(b.readMessage()).toBeNull();
  });
});
