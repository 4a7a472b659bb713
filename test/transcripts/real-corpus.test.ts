import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../helpers/cli.js';
import { extractFacts, readTranscript } from '../../src/transcript/index.js';

// Every field below was checked by reading the transcript (its compaction summary, its last TodoWrite
// list, its last message); the written files are also checked against the files the recording tool
// (entire) itself listed for each session, in SOURCES.md.
const REAL = join(FIXTURES, 'transcripts', 'real');
const facts = (name: string) => {
  const f = extractFacts(readTranscript(readFileSync(join(REAL, name), 'utf8')));
  return { ...f, changedFiles: f.changedFiles.map((c) => c.path) };
};

const EXPECTED: Record<string, ReturnType<typeof facts>> = {
  'claude-2.0.76-cleanup.jsonl': {
    "goal": [
      "User initiated a comprehensive code review workflow for PR #2 (`soph/move-clean-to-session-cleanup`) in the Entire CLI Go project"
    ],
    "progress": [
      "Fix P1 #1: Active session protection (grace period)",
      "Fix P1 #2: Hash length mismatch",
      "Run tests to verify fixes",
      "Found 3 places with hardcoded `[:7]` for shadow branch naming",
      "All tests pass and linting is clean."
    ],
    "decisions": [
      "But I found one issue in `manual_commit_test.go:1170` that stores `BaseCommit` as 7-char instead of the full hash."
    ],
    "blockers": [],
    "nextSteps": [
      "Need to verify all tests still pass after constant refactoring",
      "Run tests to verify the constant refactoring doesn't break anything, then investigate the `BaseCommit` storage inconsistency between strategies."
    ],
    "changedFiles": [
      "cmd/entire/cli/strategy/clean_test.go",
      "cmd/entire/cli/strategy/cleanup.go",
      "cmd/entire/cli/checkpoint/temporary.go",
      "cmd/entire/cli/strategy/manual_commit_session.go",
      "cmd/entire/cli/strategy/auto_commit.go",
      "cmd/entire/cli/strategy/manual_commit_test.go",
      "cmd/entire/cli/checkpoint/committed.go",
      "cmd/entire/cli/checkpoint/checkpoint_test.go"
    ]
  },
  'claude-2.1.14-explain.jsonl': {
    "goal": [
      "User wanted to brainstorm Linear ENT-53 (Clean up explain output) and break it into smaller PR-able chunks"
    ],
    "progress": [
      "Task 1: Test for new flags existence",
      "Task 2: Implement new flags",
      "Task 3: Test for mutual exclusivity error",
      "Task 4: Implement mutual exclusivity check",
      "Task 5: Test for checkpoint not found error",
      "Task 6: Implement checkpoint lookup",
      "Task 7: Test for default output format",
      "Task 8: Implement default output format",
      "Task 9: Test for verbose output format",
      "Task 10: Implement verbose output format",
      "Task 11: Test for full output format",
      "Task 12: Implement full output format",
      "Task 13: Integration tests for --checkpoint flag",
      "Task 14: Run full test suite and lint",
      "Task 15: Update help text",
      "Implementation of ENT-109 is complete."
    ],
    "decisions": [
      "Let me address the lint warnings by using `fmt.Fprintf` instead of `WriteString(fmt.Sprintf(...))`.",
      "Good, gofmt optimized the transcript output to use `sb.Write(result.Transcript)` directly instead of converting to string."
    ],
    "blockers": [],
    "nextSteps": [],
    "changedFiles": [
      "cmd/entire/cli/explain.go",
      "cmd/entire/cli/explain_test.go",
      "cmd/entire/cli/integration_test/explain_test.go"
    ]
  },
  'claude-2.1.39-condensation.jsonl': {
    "goal": [
      "The user asked to implement a detailed plan titled \"Use ComputeTranscriptPath in Log Restoration\"."
    ],
    "progress": [
      "All implementation work is complete.",
      "All implementation work from the plan is complete."
    ],
    "decisions": [],
    "blockers": [],
    "nextSteps": [],
    "changedFiles": [
      "cmd/entire/cli/checkpoint/checkpoint.go",
      "cmd/entire/cli/checkpoint/committed.go",
      "cmd/entire/cli/strategy/manual_commit_condensation.go",
      "cmd/entire/cli/strategy/auto_commit.go",
      "cmd/entire/cli/strategy/manual_commit_rewind.go",
      "cmd/entire/cli/resume.go"
    ]
  },
  'claude-2.1.5-resume.jsonl': {
    "goal": [
      "User requested a thorough review of the codebase to find CWD vs repo root bugs (this was the 3rd such error found)"
    ],
    "progress": [
      "Fix checkpoint/temporary.go buildTreeWithChanges",
      "Fix agent/claudecode/claude.go DetectPresence",
      "Fix agent/claudecode/hooks.go InstallHooks",
      "Fix GetSessionDir calls (resume.go, rewind.go, session.go)",
      "Fix manual_commit_rewind.go Claude project dir",
      "Run tests to verify fixes",
      "I had just finished updating CLAUDE.md with comprehensive documentation about CWD vs repo root bugs when the user asked about creating a linting rule.",
      "Done. I've added a `forbidigo` linting rule that flags `os.Getwd()` usage in production code"
    ],
    "decisions": [],
    "blockers": [],
    "nextSteps": [
      "User asked \"could we have a linting rule?\" to prevent CWD vs repo root bugs",
      "User's most recent message was: \"could we have a linting rule?\""
    ],
    "changedFiles": [
      "cmd/entire/cli/checkpoint/temporary.go",
      "cmd/entire/cli/agent/claudecode/claude.go",
      "cmd/entire/cli/agent/claudecode/hooks.go",
      "cmd/entire/cli/resume.go",
      "cmd/entire/cli/session.go",
      "cmd/entire/cli/rewind.go",
      "cmd/entire/cli/strategy/manual_commit_rewind.go",
      "cmd/entire/cli/strategy/push_common.go",
      "CLAUDE.md",
      ".golangci.yaml"
    ]
  },
  'claude-2.1.7-state.jsonl': {
    "goal": [
      "The user wants to track the transcript position (last UUID and line count) at the START of each checkpoint."
    ],
    "progress": [
      "Add TranscriptUUIDAtStart and TranscriptLinesAtStart to CommittedMetadata",
      "Add LastTranscriptUUID and LastTranscriptLineCount to PrePromptState",
      "Create helper to get last UUID and line count from transcript",
      "Update CapturePrePromptState to capture transcript position",
      "Update writeMetadataJSON to include new fields",
      "Run tests to verify changes",
      "I had just finished adding tests for the new transcript position tracking functionality.",
      "The simplicity reviewer found the implementation is already minimal and well-designed"
    ],
    "decisions": [
      "Tests are appropriate - they test actual behavior (capture/load cycle, edge cases) rather than Go internals"
    ],
    "blockers": [],
    "nextSteps": [
      "Run the tests to verify they pass"
    ],
    "changedFiles": [
      "cmd/entire/cli/checkpoint/checkpoint.go",
      "cmd/entire/cli/state.go",
      "cmd/entire/cli/transcript.go",
      "cmd/entire/cli/hooks_claudecode_handlers.go",
      "cmd/entire/cli/checkpoint/committed.go",
      "cmd/entire/cli/strategy/strategy.go",
      "cmd/entire/cli/strategy/auto_commit.go",
      "cmd/entire/cli/transcript_test.go",
      "cmd/entire/cli/state_test.go"
    ]
  },
  'codex-0.77-homelab.jsonl': {
    "goal": [
      "can you analyse the MD files in this directory and determine if the info we have is clear enough to start planning the migration?"
    ],
    "progress": [],
    "decisions": [],
    "blockers": [],
    "nextSteps": [],
    "changedFiles": []
  },
};

// The files each session touched, as the recording tool (entire) listed them in its checkpoint metadata.
const TOUCHED = JSON.parse(readFileSync(join(REAL, 'files-touched.json'), 'utf8')) as Record<string, string[]>;

describe('session facts from real transcripts', () => {
  for (const [name, expected] of Object.entries(EXPECTED)) {
    it(name, () => {
      expect(facts(name)).toEqual(expected);
    });
  }

  it('lists exactly the files each Claude Code session wrote, relative to its working directory', () => {
    for (const [name, files] of Object.entries(TOUCHED)) expect([...facts(name).changedFiles].sort()).toEqual(files);
  });

  it('Codex: the goal is the user request, not the AGENTS.md or environment preamble', () => {
    expect(facts('codex-0.77-homelab.jsonl').goal).toEqual(['can you analyse the MD files in this directory and determine if the info we have is clear enough to start planning the migration?']);
  });
});
