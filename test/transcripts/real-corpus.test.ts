import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../helpers/cli.js';
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
