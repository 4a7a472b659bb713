/**
 * The stdio transport's read buffer, without its quadratic cost: the SDK's ReadBuffer copies everything
 * buffered on every 64 KiB chunk (a 32 MiB message took about 20 s of CPU); this one keeps the chunks and
 * joins them once a line is complete. Same contract: append throws past maxBytes, readMessage returns the
 * next JSON-RPC message or null. It reads a line with the SDK's own parser, given by the caller (so `memctx
 * --help`, which loads this module, loads no SDK).
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export class LineBuffer {
  private chunks: Buffer[] = [];
  private size = 0;
  constructor(
    private readonly maxBytes: number,
    private readonly parse: (line: string) => JSONRPCMessage,
  ) {}

  append(chunk: Buffer): void {
    if (this.size + chunk.length > this.maxBytes) {
      this.clear();
      throw new Error(`ReadBuffer exceeded maximum size of ${this.maxBytes} bytes`);
    }
    this.chunks.push(chunk);
    this.size += chunk.length;
  }

  readMessage(): JSONRPCMessage | null {
    const last = this.chunks.length - 1;
    if (last < 0) return null;
    // Only the newest chunk can hold a newline the last call did not see.
    const at = this.chunks[last].indexOf(10);
    if (at === -1) return null;
    const all = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.size);
    const end = this.size - this.chunks[last].length + at;
    const rest = all.subarray(end + 1);
    this.chunks = rest.length ? [rest] : [];
    this.size = rest.length;
    return this.parse(all.toString('utf8', 0, end).replace(/\r$/, ''));
  }

  clear(): void {
    this.chunks = [];
    this.size = 0;
  }
}
