import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { expectedFacts, flushFields, grade } from '../../bench/flush-quality.bench.js';
import { FIXTURES, tempDir } from '../helpers/cli.js';
import { extractFacts, readTranscript } from '../../src/transcript/index.js';

// The written files are checked against the files the recording tool (entire) itself listed for each
// session (SOURCES.md); the other fields are graded against expected-facts.json.
const REAL = join(FIXTURES, 'transcripts', 'real');
const facts = (name: string) => {
  const f = extractFacts(readTranscript(readFileSync(join(REAL, name), 'utf8')));
  return { ...f, changedFiles: f.changedFiles.map((c) => c.path) };
};

// The files each session touched, as the recording tool (entire) listed them in its checkpoint metadata.
const TOUCHED = JSON.parse(readFileSync(join(REAL, 'files-touched.json'), 'utf8')) as Record<string, string[]>;

describe('session facts from real transcripts', () => {
  it('lists exactly the files each Claude Code session wrote, relative to its working directory', () => {
    for (const [name, files] of Object.entries(TOUCHED)) expect([...facts(name).changedFiles].sort()).toEqual(files);
  });

  it('Codex: the goal is the user request, not the AGENTS.md or environment preamble', () => {
    expect(facts('codex-0.77-homelab.jsonl').goal).toEqual(['can you analyse the MD files in this directory and determine if the info we have is clear enough to start planning the migration?']);
  });
});

describe('the graded set (bench flush-quality): the summary a flush writes of each real session', () => {
  it('states the end state and the expected decisions, repeats no stale next step, lists no transient blocker', async () => {
    const work = tempDir();
    mkdirSync(join(work, '.memory'));
    const sum = { end: [0, 0], decisions: [0, 0], stale: 0, transient: 0, files: [0, 0] };
    for (const [file, facts] of Object.entries(expectedFacts())) {
      const g = grade(await flushFields(work, file), facts);
      sum.end = [sum.end[0] + g.endState[0], sum.end[1] + g.endState[1]];
      sum.decisions = [sum.decisions[0] + g.decisions[0], sum.decisions[1] + g.decisions[1]];
      sum.files = [sum.files[0] + g.files[0], sum.files[1] + g.files[1]];
      sum.stale += g.stale;
      sum.transient += g.transient;
    }
    expect(sum.stale).toBe(0);
    expect(sum.transient).toBe(0);
    expect(sum.end[0] / sum.end[1]).toBeGreaterThanOrEqual(0.9);
    expect(sum.decisions[0] / sum.decisions[1]).toBeGreaterThanOrEqual(0.8);
    expect(sum.files[0]).toBe(sum.files[1]);
  });
});
