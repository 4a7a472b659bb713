// No sleep-based races and no wall-clock limits in tests (ARCHITECTURE.md, "Tests"): a test waits on
// an event, a file or a state (a barrier), or runs on fake timers or an injected clock; how fast
// something runs is measured in bench/. test/e2e/claude/ and test/e2e/codex/ drive real outside tools that
// need real waits; test/helpers/ holds the shared processes and timeouts.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.js';

const TEST = join(REPO, 'test');
const EXEMPT = ['e2e/claude/', 'e2e/codex/', 'helpers/'];

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

/** Each matching line as "file:line: text", outside the exempt folders and this file. */
function find(pattern: RegExp): string[] {
  return files(TEST)
    .filter((file) => !EXEMPT.some((folder) => relative(TEST, file).startsWith(folder)) && !file.endsWith('test-waits.test.ts'))
    .flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (pattern.test(line) ? [`${relative(REPO, file)}:${i + 1}: ${line.trim()}`] : [])),
    );
}

/** Waits that are allowed, by file and what they contain, each with why it is no race. */
const ALLOWED: { file: string; contains: string; why: string }[] = [];

const allowed = (hit: string) => ALLOWED.some((a) => hit.startsWith(`${a.file}:`) && hit.includes(a.contains));

describe('tests wait on barriers, not on the clock', () => {
  it('no test sleeps: no setTimeout, timers/promises, Atomics.wait or sleep() outside test/e2e/claude, test/e2e/codex and test/helpers', () => {
    expect(find(/\bsetTimeout\s*\(|timers\/promises|Atomics\.wait\b|\bsleep\s*\(/).filter((hit) => !allowed(hit))).toEqual([]);
  });

  it('no test times itself: no performance.now(), process.hrtime or Date.now() minus a start', () => {
    expect(find(/\bperformance\.now\s*\(|\bprocess\.hrtime\b|\bDate\.now\(\)\s*-\s*[A-Za-z_$]/).filter((hit) => !allowed(hit))).toEqual([]);
  });
});
