// PreCompact: a compaction triggered non-interactively (`claude -p /compact --continue`) runs the flush hook.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeVersion, hookCommand, hookRuns, makeWorld, memctx, runClaude, section, unavailable, writeSettings, type SessionResult, type World } from './harness.js';
import { stateOf } from '../../helpers/cli.js';

const PROMPT = 'Split the settings page into tabs';
const SUMMARY = '<analysis>Short session.</analysis>\n<summary>1. Primary Request and Intent: split the settings page into tabs.\n2. Pending Tasks: move the billing form into its tab.</summary>';

describe.skipIf(unavailable)(`PreCompact in Claude Code ${claudeVersion}`, () => {
  let world: World;
  let first: SessionResult;
  let compact: SessionResult;

  beforeAll(async () => {
    world = makeWorld();
    expect(memctx(['init'], { cwd: world.project }).code).toBe(0);
    writeSettings(world, {
      hooks: {
        SessionEnd: [{ hooks: [{ type: 'command', command: hookCommand(world, 'session-end', 'flush --hook'), timeout: 10 }] }],
        PreCompact: [{ matcher: 'auto|manual', hooks: [{ type: 'command', command: hookCommand(world, 'pre-compact', 'flush --hook'), timeout: 10 }] }],
      },
    });
    first = await runClaude(world, {
      prompt: PROMPT,
      allowedTools: ['Write'],
      turns: [
        { content: [{ type: 'tool_use', name: 'Write', input: { file_path: join(world.project, 'src/settings/tabs.js'), content: 'export const TABS = ["profile", "billing"];\n' } }] },
        { content: [{ type: 'text', text: 'Tabs added.\nTODO: move the billing form into its tab.' }] },
      ],
    });
    compact = await runClaude(world, { prompt: '/compact', args: ['--continue'], turns: [], compactionText: SUMMARY });
  });
  afterAll(() => world?.cleanup());

  it('/compact with -p --continue compacts the session: one summary request, a compact_boundary', () => {
    expect(first.code).toBe(0);
    expect(compact.code).toBe(0);
    expect(compact.requests.map((r) => (r.compaction ? 'compaction' : r.agent ? 'agent' : 'side'))).toEqual(['compaction']);
    expect(compact.transcriptPath).toBe(first.transcriptPath);
    const boundary = compact.transcript.filter((line) => line.type === 'system' && line.subtype === 'compact_boundary');
    expect(boundary.map((line) => line.compactMetadata.trigger)).toEqual(['manual']);
    expect(compact.transcript.filter((line) => line.isCompactSummary)).toHaveLength(1);
  });

  it('the PreCompact hook flushes into the session file, and SessionEnd updates it', () => {
    expect(hookRuns(world, 'pre-compact').runs.map((r) => r.code)).toEqual([0]);
    expect(hookRuns(world, 'session-end').runs.map((r) => r.code)).toEqual([0, 0]);
    const files = readdirSync(join(world.project, '.memory/sessions'));
    expect(files).toHaveLength(1);
    const sessionId = first.transcript.find((line) => line.sessionId)?.sessionId;
    const log = readFileSync(join(stateOf(join(world.project, '.memory')), 'flush.log'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => line.replace(/^\S+ /, '').replace(/ \(\d+ tokens\).*$/, ''));
    expect(log).toEqual([
      `SessionEnd(other) session=${sessionId} wrote sessions/${files[0]}`,
      `PreCompact(manual) session=${sessionId} updated sessions/${files[0]}`,
      `SessionEnd(other) session=${sessionId} updated sessions/${files[0]}`,
    ]);
    const text = readFileSync(join(world.project, '.memory/sessions', files[0]), 'utf8');
    expect(text).toContain(`session_id: ${sessionId}\n`);
    // After a compaction the goal is the summary's Primary Request (the flush extractor's choice).
    expect(section(text, 'Goal')).toBe('split the settings page into tabs.');
    // A file the scripted model wrote within the session's first second may miss git's (new) mark: the list is what counts.
    expect(section(text, 'Changed Files').replaceAll(' (new)', '')).toBe('- src/settings/tabs.js');
    expect(section(text, 'Next Steps')).toBe('- move the billing form into its tab.');
  });

  it('status after the compaction reads the postTokens of the boundary', () => {
    const boundary = compact.transcript.find((line) => line.subtype === 'compact_boundary');
    const json = JSON.parse(memctx(['--json', 'status', compact.transcriptPath!], { cwd: world.project }).stdout);
    expect(typeof boundary.compactMetadata.postTokens).toBe('number');
    expect({ used: json.used, source: json.source, kind: json.recorded.kind }).toEqual({ used: boundary.compactMetadata.postTokens, source: 'recorded', kind: 'claude-compact-boundary' });
  });
});

describe.skipIf(unavailable)(`auto compaction in Claude Code ${claudeVersion}`, () => {
  let world: World;
  let session: SessionResult;
  const prompt = 'Rename the config loader';

  beforeAll(async () => {
    world = makeWorld();
    expect(memctx(['init'], { cwd: world.project }).code).toBe(0);
    writeSettings(world, { hooks: { PreCompact: [{ matcher: 'auto|manual', hooks: [{ type: 'command', command: hookCommand(world, 'pre-compact', 'flush --hook'), timeout: 10 }] }] } });
    // The first response reports a context of 985,006 tokens out of Opus 5.5's 1,000,000: Claude Code
    // compacts before it sends the next request.
    session = await runClaude(world, {
      prompt,
      allowedTools: ['Write'],
      turns: [
        { content: [{ type: 'tool_use', name: 'Write', input: { file_path: join(world.project, 'src/config.js'), content: 'export const load = () => ({});\n' } }], usage: { input_tokens: 6, cache_creation_input_tokens: 0, cache_read_input_tokens: 985_000 } },
        { content: [{ type: 'text', text: 'Renamed.\nTODO: update the docs for the new name.' }] },
      ],
    });
  });
  afterAll(() => world?.cleanup());

  it('compacts on its own between the turns, and PreCompact(auto) flushes the session', () => {
    expect(session.code).toBe(0);
    expect(session.requests.map((r) => (r.compaction ? 'compaction' : r.agent ? 'agent' : 'side'))).toEqual(['agent', 'compaction', 'agent']);
    expect(session.transcript.filter((line) => line.subtype === 'compact_boundary').map((line) => line.compactMetadata.trigger)).toEqual(['auto']);
    expect(hookRuns(world, 'pre-compact').runs.map((r) => r.code)).toEqual([0]);
    const [file] = readdirSync(join(world.project, '.memory/sessions'));
    const sessionId = session.transcript.find((line) => line.sessionId)?.sessionId;
    const log = readFileSync(join(stateOf(join(world.project, '.memory')), 'flush.log'), 'utf8');
    expect(log.replace(/^\S+ /, '').replace(/ \(\d+ tokens\).*$/s, '')).toBe(`PreCompact(auto) session=${sessionId} wrote sessions/${file}`);
    const text = readFileSync(join(world.project, '.memory/sessions', file), 'utf8');
    expect(section(text, 'Goal')).toBe(prompt);
    // A file the scripted model wrote within the session's first second may miss git's (new) mark: the list is what counts.
    expect(section(text, 'Changed Files').replaceAll(' (new)', '')).toBe('- src/config.js — load');
  });

  it('status reads the usage recorded after the boundary', () => {
    const json = JSON.parse(memctx(['--json', 'status', session.transcriptPath!], { cwd: world.project }).stdout);
    expect({ used: json.used, level: json.level, kind: json.recorded.kind }).toEqual({ used: 1200, level: 'green', kind: 'claude-usage' });
  });
});
