// memctx status, compact and flush --transcript on the genuine transcript this Claude Code version wrote.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeVersion, makeWorld, memctx, REPO, runClaude, section, unavailable, type SessionResult, type World } from './harness.js';

const PROMPT = 'Add a retry helper for the payment client';
const FINAL = [
  'Added src/retry.js and used it in src/payments.js.',
  'DECISION: retry only idempotent requests, at most 3 times with exponential backoff.',
  'BLOCKER: the sandbox gateway rejects the test card.',
  'TODO: add jitter to the backoff.',
].join('\n');

describe.skipIf(unavailable)(`a genuine Claude Code ${claudeVersion} transcript`, () => {
  let world: World;
  let session: SessionResult;
  let transcript: string;

  beforeAll(async () => {
    world = makeWorld();
    expect(memctx(['init'], { cwd: world.project }).code).toBe(0);
    mkdirSync(join(world.project, 'logs'));
    const log = Array.from({ length: 120 }, (_, i) => `[build] step ${i + 1} of 120: compiled module ${i + 1}`);
    writeFileSync(join(world.project, 'logs/build.log'), log.join('\n') + '\n');
    session = await runClaude(world, {
      prompt: PROMPT,
      allowedTools: ['Write', 'Edit', 'Read'],
      turns: [
        { content: [{ type: 'text', text: 'Reading the build log first.' }, { type: 'tool_use', name: 'Read', input: { file_path: join(world.project, 'logs/build.log') } }] },
        {
          content: [{ type: 'text', text: 'I will add the helper first.' }, { type: 'tool_use', name: 'Write', input: { file_path: join(world.project, 'src/retry.js'), content: '// Retries an idempotent request with exponential backoff.\nexport async function retry(fn, times = 3) {\n  return fn();\n}\n' } }],
          usage: { input_tokens: 3, cache_creation_input_tokens: 12_000, cache_read_input_tokens: 0, output_tokens: 120 },
        },
        {
          content: [{ type: 'tool_use', name: 'Write', input: { file_path: join(world.project, 'src/payments.js'), content: "import { retry } from './retry.js';\nexport const charge = (card) => retry(() => card);\n" } }],
          usage: { input_tokens: 5, cache_creation_input_tokens: 800, cache_read_input_tokens: 12_000, output_tokens: 90 },
        },
        { content: [{ type: 'text', text: FINAL }], usage: { input_tokens: 6, cache_creation_input_tokens: 1_500, cache_read_input_tokens: 166_900, output_tokens: 60 } },
      ],
    });
    transcript = session.transcriptPath!;
    if (process.env.MEMCTX_E2E_WRITE_FIXTURE) writeFixture(world, transcript);
  });
  afterAll(() => world?.cleanup());

  it('is written under $HOME/.claude/projects/<key>/ with the line types of this version', () => {
    expect(session.code).toBe(0);
    expect(transcript.startsWith(session.projectDir + '/')).toBe(true);
    const types = new Set(session.transcript.map((line) => line.type));
    for (const type of ['user', 'assistant', 'attachment', 'api-request', 'api-request-shape', 'last-prompt']) expect(types).toContain(type);
    // One assistant line per content block, all with the final usage on the last response.
    expect(session.transcript.filter((line) => line.type === 'assistant')).toHaveLength(6);
  });

  // Note: memctx's preset gives claude-opus-5-5 200,000 tokens; Claude Code 2.1.330 itself gives it
  // 1,000,000 (its status-line JSON says so, and it compacts near 1M: see statusline and precompact).
  it('status reads the recorded usage of the last response', () => {
    const result = memctx(['--json', 'status', transcript], { cwd: world.project });
    expect(result.code).toBe(0);
    const json = JSON.parse(result.stdout);
    expect({ format: json.format, used: json.used, window: json.window, percent: json.percent, level: json.level, source: json.source, model: json.model, notes: json.notes }).toEqual({
      format: 'claude',
      used: 168_406,
      window: 200_000,
      percent: 84.2,
      level: 'yellow',
      source: 'recorded',
      model: 'claude-opus-5-5',
      notes: [],
    });
  });

  it('compact keeps every marked line and reports exact figures', () => {
    // Under a fixed relative name: the rendition's heading names the file (a session id's tokens vary).
    const copy = join(world.root, 'session.jsonl');
    copyFileSync(transcript, copy);
    const out = join(world.root, 'compacted.md');
    const result = memctx(['--json', 'compact', 'session.jsonl', '--keep-last', '0', '--out', out], { cwd: world.root });
    expect(result.code).toBe(0);
    const json = JSON.parse(result.stdout);
    expect({ before: json.tokensBefore, after: json.tokensAfter, saved: json.saved, marked: json.marked, missing: json.missing }).toEqual({ before: 2432, after: 577, saved: 1855, marked: 3, missing: [] });
    const text = readFileSync(out, 'utf8');

    for (const line of FINAL.split('\n').slice(1)) expect(text).toContain(line);
  });

  it('flush --transcript writes the six fields from it', () => {
    const result = memctx(['flush', '--transcript', transcript], { cwd: world.project });
    expect(result.code).toBe(0);
    const [file] = readdirSync(join(world.project, '.memory/sessions'));
    const text = readFileSync(join(world.project, '.memory/sessions', file), 'utf8');
    expect(section(text, 'Goal')).toBe(PROMPT);
    expect(section(text, 'Decisions')).toBe('- retry only idempotent requests, at most 3 times with exponential backoff.');
    expect(section(text, 'Blockers')).toBe('- the sandbox gateway rejects the test card.');
    expect(section(text, 'Next Steps')).toBe('- add jitter to the backoff.');
    expect(section(text, 'Changed Files')).toBe('- src/retry.js — Retries an idempotent request with exponential backoff (retry)\n- src/payments.js — charge');
  });
});

/**
 * Copy the transcript into fixtures/ (MEMCTX_E2E_WRITE_FIXTURE=1): the temporary root replaced by a
 * fixed path, Claude Code's own system prompt, tool schemas and skill list elided; all else as written.
 */
function writeFixture(world: World, path: string): void {
  const dir = join(REPO, 'fixtures/transcripts', `claude-code-${claudeVersion}`);
  mkdirSync(dir, { recursive: true });
  const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean).map((line) => {
    const value = JSON.parse(line.split(world.root).join('/tmp/memctx-claude-000000'));
    if (value.type === 'api-request-shape' && value.shape) value.shape = { elided: 'the request shape (Claude Code system prompt and tool schemas) is left out of this fixture' };
    if (value.type === 'api-request-blob' && value.message?.role === 'system') value.message.content = [{ type: 'text', text: '(system prompt elided)' }];
    const attachment = value.attachment;
    if (attachment?.type === 'prompt_snapshot') for (const key of ['systemPrompt', 'tools']) if (key in attachment) attachment[key] = '(elided)';
    if (attachment?.type === 'skill_listing') attachment.content = '(elided)';
    return JSON.stringify(value);
  });
  writeFileSync(join(dir, 'session.jsonl'), lines.join('\n') + '\n');
}
