// processOutput: fd 1 and 2 written with writeSync into a pipe, a file or /dev/null, the real stream made
// only for a terminal or anything beyond write and isTTY; a closed pipe stops quietly as before.
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { processOutput } from '../../../../src/kernel/cli/context.js';
import { BIN, removeDir, tempDir } from '../../../helpers/cli.js';

const dirs: string[] = [];
const fds: number[] = [];
afterEach(() => {
  fds.splice(0).forEach((fd) => closeSync(fd));
  dirs.splice(0).forEach(removeDir);
});

function open(path: string, flags = 'w'): number {
  const fd = openSync(path, flags);
  fds.push(fd);
  return fd;
}

/** A stand-in for process.stdout that records what it was given. */
function fakeStream() {
  const got: unknown[] = [];
  return { got, made: 0, stream: { write: (text: unknown) => got.push(text), columns: 80, isTTY: true } };
}

describe('processOutput', () => {
  it('writes into a file with writeSync, never making the stream, and says it is no terminal', () => {
    const dir = tempDir();
    dirs.push(dir);
    const fd = open(join(dir, 'out'));
    const fake = fakeStream();
    const out = processOutput(fd, () => (fake.made++, fake.stream as unknown as NodeJS.WritableStream));
    out.write('héllo ');
    out.write('● 83%\n');
    expect(out.isTTY).toBeUndefined();
    expect(readFileSync(join(dir, 'out'), 'utf8')).toBe('héllo ● 83%\n');
    expect(fake.made).toBe(0);
  });

  it('makes the stream for anything else, and the stream then takes every write', () => {
    const dir = tempDir();
    dirs.push(dir);
    const fd = open(join(dir, 'out'));
    const fake = fakeStream();
    const out = processOutput(fd, () => (fake.made++, fake.stream as unknown as NodeJS.WritableStream));
    out.write('first\n');
    expect((out as unknown as { columns: number }).columns).toBe(80);
    out.write('second\n');
    expect(fake.made).toBe(1);
    expect(fake.got).toEqual(['second\n']);
    expect(readFileSync(join(dir, 'out'), 'utf8')).toBe('first\n');
  });

  it('writes /dev/null directly, but makes the stream for another character device (it could be a terminal)', () => {
    const fake = fakeStream();
    const devNull = processOutput(open('/dev/null'), () => (fake.made++, fake.stream as unknown as NodeJS.WritableStream));
    devNull.write('x');
    expect(fake.made).toBe(0);
    const device = processOutput(open('/dev/zero', 'r+'), () => (fake.made++, fake.stream as unknown as NodeJS.WritableStream));
    expect(device.isTTY).toBe(true);
    device.write('y');
    expect(fake.made).toBe(1);
    expect(fake.got).toEqual(['y']);
  });

  it('a closed pipe: the process stops quietly with exit code 0 at the next tick, later writes dropped', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const writeEnd = pipeWithoutReader(dir);
    const exits: number[] = [];
    const out = processOutput(writeEnd, () => {
      throw new Error('no stream should be made');
    }, (code) => exits.push(code));
    out.write('lost\n');
    out.write('lost too\n');
    expect(exits).toEqual([]);
    await new Promise((resolve) => process.nextTick(resolve));
    expect(exits).toEqual([0]);
  });
});

/** A FIFO's write end whose only reader has been closed (writes fail with EPIPE). */
function pipeWithoutReader(dir: string): number {
  const path = join(dir, 'fifo');
  expect(spawnSync('mkfifo', [path]).status).toBe(0);
  const reader = openSync(path, 'r+');
  const writer = open(path, 'w');
  closeSync(reader);
  return writer;
}

describe('memctx writing into a closed pipe', () => {
  it.each([['--version'], ['status', '--statusline']])('memctx %s exits 0 with nothing on stderr, as with the stream', (...args) => {
    const dir = tempDir();
    dirs.push(dir);
    writeFileSync(join(dir, 'in.json'), '{"context_window":{"used_percentage":50,"context_window_size":200000}}');
    const fifo = join(dir, 'fifo');
    const script = `mkfifo "${fifo}" && exec 4<>"${fifo}" && exec 5>"${fifo}" && exec 4<&- && exec "${process.execPath}" "${BIN}" "$@" <"${join(dir, 'in.json')}" >&5`;
    const result = spawnSync('sh', ['-c', script, 'sh', ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});
