/**
 * What `flush --hook --summarize-with claude|codex` costs in tokens per session: the prompt the
 * background worker sends (the fields, the rules, memctx's offline draft and the transcript compacted
 * and capped) and the answer (at most the summary's maximum, 650 tokens; the offline summary's size is
 * shown as what a typical answer runs to). Counted with o200k_base; Claude's tokenizer counts within
 * about 10% of it on English and code. The agent's own fixed overhead (its system prompt: memctx passes
 * a one-line one to `claude -p`; Claude Code's environment note) comes on top.
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { flush } from '../src/commands/flush/flush.js';
import { resolveFlush } from '../src/commands/flush/schema.js';
import { headlessPrompt } from '../src/commands/flush/summary-job.js';
import { readTranscriptText } from '../src/kernel/sources/transcript-file.js';
import { readTranscript } from '../src/kernel/transcript/index.js';
import { smallTextCounter } from '../src/kernel/tokens/small.js';
import { DEFAULT_MAX, DEFAULT_TARGET } from '../src/kernel/summary/limits.js';
import { REPO } from './measure.js';
import { locateTranscripts } from './real-transcripts.js';
import type { BenchRow, BenchSection } from './run.js';

/** The three real sessions the graded set holds outside the repository, and the committed fixtures. */
const SHARED = ['claude-2.1.15-race.jsonl', 'claude-2.1.20-two-compactions.jsonl', 'claude-2.1.37-midturn.jsonl'];
const FIXTURES = [
  ...readdirSync(join(REPO, 'fixtures/transcripts/real')).filter((n) => n.endsWith('.jsonl')).map((n) => join('fixtures/transcripts/real', n)),
  'fixtures/transcripts/claude-session.jsonl',
  'fixtures/transcripts/claude-long.jsonl',
  'fixtures/transcripts/codex-session.jsonl',
  'fixtures/flush-transcripts/session.jsonl',
];

const section: BenchSection = {
  name: 'summarize-cost',
  async run(work) {
    const root = join(work, '.memory');
    rmSync(work, { recursive: true, force: true });
    mkdirSync(root, { recursive: true });
    const counter = smallTextCounter('o200k_base');
    const count = (text: string) => counter.count(text);
    const { found, note } = locateTranscripts(SHARED);
    const paths: Array<[string, string]> = [...[...found].map(([name, path]): [string, string] => [`real: ${name}`, path]), ...FIXTURES.map((p): [string, string] => [p, join(REPO, p)])];
    const rows: BenchRow[] = [];
    const totals: number[] = [];
    for (const [label, path] of paths) {
      const draft = await flush(resolveFlush({ transcript: path, dry_run: true }), { cwd: work, env: {}, home: work, now: () => new Date('2026-11-28T12:00:00Z'), readStdin: async () => '', root });
      const body = draft.text.replace(/^---\n[\s\S]*?\n---\n/, '');
      const { prompt, transcriptTokens } = headlessPrompt(readTranscript(readTranscriptText(path)), body, { target: DEFAULT_TARGET, max: DEFAULT_MAX }, count);
      const tokens = count(prompt);
      totals.push(tokens + draft.plan.tokens);
      rows.push({ label: label.slice(0, 58), value: `${tokens} + ${draft.plan.tokens}`, data: { prompt: tokens, transcript: transcriptTokens, draft: draft.plan.tokens, answerMax: DEFAULT_MAX } });
    }
    const sorted = [...totals].sort((a, b) => a - b);
    rows.push({ label: 'per session, prompt + answer: median / largest', value: `${sorted[Math.floor(sorted.length / 2)]} / ${sorted.at(-1)}`, goal: `≤ ${17_000 + DEFAULT_MAX}`, ok: sorted.at(-1)! <= 17_000 + DEFAULT_MAX });
    if (note) rows.push({ label: note.slice(0, 58), value: 'absent' });
    return rows;
  },
};

export default section;
