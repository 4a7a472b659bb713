// capacity/measure.ts: what `memctx status` reads from a transcript: unreadable, empty, truncated and odd
// inputs, recorded usage it must ignore, and format detection (test/commands/status/cli.test.ts holds the report).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, removeDir } from '../../helpers/cli.js';
import { runCli } from '../../helpers/run.js';

let dir: string;
beforeAll(() => {
  dir = copyFixture('transcripts');
});
afterAll(() => removeDir(resolve(dir, '..')));

const run = async (args: string[], options: { input?: string; env?: Record<string, string | undefined> } = {}) => await runCli(args, { cwd: dir, ...options });
const json = async (args: string[], options: { input?: string; env?: Record<string, string | undefined> } = {}) => {
  const r = await run(['--json', ...args], options);
  return { ...r, data: r.stdout ? JSON.parse(r.stdout) : undefined };
};
const jsonl = (...lines: unknown[]) => lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n';
const assistant = (id: string, usage: unknown, extra: Record<string, unknown> = {}) => ({ type: 'assistant', isSidechain: false, message: { id, role: 'assistant', model: 'claude-opus-4-1-20250805', content: [{ type: 'text', text: `reply ${id}` }], usage }, ...extra });
const u = (input: unknown, read: unknown = 0) => ({ input_tokens: input, cache_creation_input_tokens: 0, cache_read_input_tokens: read, output_tokens: 1 });
const userLine = (text: string) => ({ type: 'user', isSidechain: false, message: { role: 'user', content: text } });
const write = (name: string, text: string | Buffer) => {
  writeFileSync(join(dir, name), text);
  return name;
};

describe('memctx status: bad inputs', () => {
  it('a missing file: exit 2 naming it', async () => {
    const r = await run(['status', 'nope.jsonl']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('memctx: error: nope.jsonl: no such file\n  hint: check the path (use - to read the transcript from stdin)\n');
  });
  it('a directory: exit 2', async () => {
    mkdirSync(join(dir, 'adir'), { recursive: true });
    const r = await run(['status', 'adir']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('adir: is a directory, not a transcript file');
  });
  it('binary bytes: exit 2, from a file or stdin', async () => {
    write('bin.dat', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00]));
    const r = await run(['status', 'bin.dat']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('bin.dat: looks like a binary file (a NUL byte at offset 8), not a transcript');
    expect((await run(['status', '-'], { input: 'abc\0def' })).code).toBe(2);
  });
  it('an empty file: 0 tokens, green, with a note', async () => {
    write('empty.jsonl', '');
    const r = await json(['status', 'empty.jsonl']);
    expect(r.code).toBe(0);
    expect(r.data).toMatchObject({ used: 0, level: 'green', source: 'counted', notes: ['the transcript is empty'] });
    expect((await run(['status', 'empty.jsonl'])).stderr).toBe('warning: empty.jsonl: the transcript is empty\n');
  });
  it('a truncated last line: ignored with a note, the usage before it used', async () => {
    write('trunc.jsonl', jsonl(userLine('hi'), assistant('a', u(100, 5000))) + '{"type":"assistant","message":{"id":"b","usage":{"input_tok');
    const r = await json(['status', 'trunc.jsonl']);
    expect(r.data).toMatchObject({ used: 5100, notes: ['the last line is an incomplete JSON line (truncated write?); ignored'] });
    expect((await run(['status', 'trunc.jsonl'])).stderr).toBe('warning: trunc.jsonl: the last line is an incomplete JSON line (truncated write?); ignored\n');
  });
  it('non-JSON lines inside JSONL: skipped with a note', async () => {
    write('mixed.jsonl', jsonl(userLine('hi'), 'Traceback (most recent call last):', assistant('a', u(700)), 'garbage'));
    expect((await json(['status', 'mixed.jsonl'])).data).toMatchObject({ used: 700, notes: ['1 line is not JSON and was skipped'] });
    write('mixed2.jsonl', jsonl(userLine('hi'), 'not json', userLine('again')));
    expect((await json(['status', 'mixed2.jsonl'])).data).toMatchObject({ source: 'counted', items: 2, notes: ['1 line is not JSON and was skipped (line 2)'] });
  });
  it('usage fields missing, negative or strings: ignored with notes', async () => {
    write('badusage.jsonl', jsonl(assistant('ok', u(900)), assistant('neg', u(-5)), assistant('str', u('12')), assistant('none', { output_tokens: 3 })));
    const r = await json(['status', 'badusage.jsonl']);
    expect(r.data).toMatchObject({ used: 900, source: 'recorded' });
    expect(r.data.notes).toEqual(['usage ignored: it has no input_tokens or cache token fields', 'usage ignored: input_tokens is not a number ("12")', 'usage ignored: input_tokens is negative (-5)']);
    write('allbad.jsonl', jsonl(userLine('hello there'), assistant('neg', u(-5))));
    const all = (await json(['status', 'allbad.jsonl'])).data;
    expect(all).toMatchObject({ source: 'counted', items: 2 });
    expect(all.notes).toEqual(['line 2: usage ignored: input_tokens is negative (-5)']);
  });
  it('a Claude Code transcript with only sidechain usage: counted, with a note', async () => {
    write('side.jsonl', jsonl(userLine('do the thing'), assistant('s', u(150000), { isSidechain: true })));
    const r = await json(['status', 'side.jsonl']);
    expect(r.data).toMatchObject({ source: 'counted', items: 1, level: 'green' });
    expect(r.data.notes).toEqual(['only subagent (sidechain) usage is recorded (1 record); it does not measure the main context']);
  });
  it('a JSON document that is not a transcript is counted as text', async () => {
    write('other.json', '{"name": "pkg", "version": "1.0.0"}\n');
    expect((await json(['status', 'other.json'])).data).toMatchObject({ format: 'text', source: 'counted' });
  });
});

describe('memctx status: a first line longer than the detection window', () => {
  it('still detects Claude Code JSONL and reads its usage', async () => {
    const d = copyFixture('transcripts');
    const big = { type: 'user', isSidechain: false, sessionId: 's', message: { role: 'user', content: 'x '.repeat(200_000) } };
    const usage = { type: 'assistant', isSidechain: false, message: { id: 'm', role: 'assistant', model: 'claude-opus-4-1-20250805', content: [], usage: { input_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 120_000 } } };
    writeFileSync(join(d, 'long-first.jsonl'), `${JSON.stringify(big)}\n${JSON.stringify(usage)}\n`);
    const r = await runCli(['--json', 'status', 'long-first.jsonl'], { cwd: d });
    expect(JSON.parse(r.stdout)).toMatchObject({ format: 'claude', source: 'recorded', used: 120_005 });
    removeDir(resolve(d, '..'));
  });
});
