// kernel/sources/git-background.ts: one git call started now, its output to a file, answering as git() does.
import { spawnSync } from 'node:child_process';
import { chmodSync, fstatSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitInBackground } from '../../../src/kernel/sources/git-background.js';
import { git, GitError, GitMissingError } from '../../../src/kernel/sources/git.js';
import { makeRepo } from '../../helpers/repo.js';
import { tempDir } from '../../helpers/cli.js';

/** A new file open for reading and writing, as the state folder's scratch file is. */
const scratch = () => openSync(join(tempDir(), 'out'), 'wx+', 0o600);

/** True while the descriptor is open. */
function isOpen(fd: number): boolean {
  try {
    fstatSync(fd);
    return true;
  } catch {
    return false;
  }
}

describe('gitInBackground', () => {
  it("answers git()'s stdout, however long (a log of many commits)", async () => {
    const repo = await makeRepo();
    // 30 commits, each adding src/f<i>.ts, made by one git fast-import (not 60 git starts), then checked out.
    const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
    const stream = Array.from({ length: 30 }, (_, i) =>
      `commit HEAD\ncommitter Test User <test@example.com> ${1_700_000_000 + i} +0000\n${data(`commit ${i}`)}${i === 0 ? 'from HEAD^0\n' : ''}M 100644 inline src/f${i}.ts\n${data(`export const v = ${i};`)}`,
    ).join('');
    const env = Object.fromEntries(Object.entries({ ...process.env, ...repo.env }).filter(([, v]) => v !== undefined)) as NodeJS.ProcessEnv;
    expect(spawnSync('git', ['fast-import', '--quiet'], { cwd: repo.top, env, input: stream }).status).toBe(0);
    repo.gitOk(['reset', '-q', '--hard']);
    expect(repo.gitOk(['log', '--format=%s', '-2'])).toBe('commit 29\ncommit 28\n');
    const args = ['log', '-z', '--name-status', '--format=%x01%H %P%x02%s'];
    const output = scratch();
    const job = gitInBackground(args, repo.top, repo.env, { output });
    const out = await job.output();
    expect(out).toBe(git(args, repo.top, repo.env));
    expect(out).toContain('commit 29');
    // the file is closed once git has ended and been read
    expect(isOpen(output)).toBe(false);
    await job.stop();
    // stop after the answer is harmless
    await job.stop();
    // no file to write to: the same answer (git runs when it is asked for)
    const inline = gitInBackground(args, repo.top, repo.env);
    expect(await inline.output()).toBe(out);
    await inline.stop();
  });

  it('followed, gives the output in pieces of whole records while git writes it, the rest at the end', async () => {
    const bin = tempDir();
    const go = join(bin, 'go');
    // a git that writes one record and a half, waits to be let go, then writes the rest
    writeFileSync(join(bin, 'git'), `#!/bin/sh\nprintf '\\001one\\000\\001tw'\ni=0; while [ ! -e ${go} ] && [ $i -lt 500 ]; do sleep 0.02; i=$((i+1)); done\nprintf 'o\\000\\001three\\000'\n`);
    chmodSync(join(bin, 'git'), 0o755);
    const pieces: string[] = [];
    let first = () => {};
    const firstPiece = new Promise<void>((resolve) => (first = resolve));
    const job = gitInBackground(['log'], bin, { PATH: `${bin}:/usr/bin:/bin` }, { output: scratch() });
    const answer = job.output({ separator: 1, take: (piece) => (pieces.push(piece), first()) });
    // the first whole record, read while git waits
    await firstPiece;
    expect(pieces).toEqual(['\x01one\0']);
    writeFileSync(go, '');
    expect(await answer).toBe('\x01one\0\x01two\0\x01three\0');
    expect(pieces.join('')).toBe('\x01one\0\x01two\0\x01three\0');
    expect(pieces.every((piece) => piece.startsWith('\x01'))).toBe(true);
    // asked again, the same answer; the pieces are not given twice
    expect(await job.output({ separator: 1, take: (piece) => pieces.push(piece) })).toBe(pieces.join(''));
    expect(pieces.join('')).toBe('\x01one\0\x01two\0\x01three\0');
  });

  it("a failing git rejects with git()'s error: exit status and stderr", async () => {
    const repo = await makeRepo();
    const args = ['rev-parse', '--verify', 'no-such-ref'];
    const err = await gitInBackground(args, repo.top, repo.env, { output: scratch() }).output().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GitError);
    let sync: unknown;
    try {
      git(args, repo.top, repo.env);
    } catch (e) {
      sync = e;
    }
    expect((err as GitError).message).toBe((sync as GitError).message);
    expect((err as GitError).status).toBe(128);
  });

  it('no git on PATH: GitMissingError', async () => {
    const err = await gitInBackground(['--version'], tempDir(), { PATH: tempDir() }, { output: scratch() }).output().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GitMissingError);
  });

  it('a git that takes longer than timeoutMs is killed and says so; stopped unasked, the job ends once git has (killed, not a minute later)', async () => {
    const bin = tempDir();
    writeFileSync(join(bin, 'git'), '#!/bin/sh\nexec sleep 60\n');
    chmodSync(join(bin, 'git'), 0o755);
    const slow = gitInBackground(['log'], bin, { PATH: `${bin}:/usr/bin:/bin` }, { timeoutMs: 300, output: scratch() });
    const err = await slow.output().catch((e: unknown) => e);
    expect((err as GitError).message).toBe('git log failed: no answer within 300 ms');
    const output = scratch();
    const unasked = gitInBackground(['log'], bin, { PATH: `${bin}:/usr/bin:/bin` }, { timeoutMs: 300, output });
    // without the kill, stop() would wait for the minute-long git and the test would time out
    await unasked.stop();
    await new Promise((resolve) => setImmediate(resolve));
    expect(isOpen(output)).toBe(false);
  });
});
