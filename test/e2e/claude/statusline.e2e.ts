// The README's status line recipe in an interactive Claude Code under tmux, read from the screen.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeVersion, hasTmux, makeWorld, openTerminal, unavailable, writeSettings, type Terminal, type World } from './harness.js';

// 6 + 1,500 + 840,000 = 841,506 tokens in context; Claude Code gives Opus 5.5 a 1,000,000-token window
// and sends used_percentage 84 (an integer), which memctx takes with its window: 84%, 840k.
const USAGE = { input_tokens: 6, cache_creation_input_tokens: 1_500, cache_read_input_tokens: 840_000, output_tokens: 12 };

describe.skipIf(unavailable || !hasTmux())(`status line in Claude Code ${claudeVersion}${hasTmux() ? '' : ' (tmux missing)'}`, () => {
  let world: World;
  let terminal: Terminal;

  beforeAll(async () => {
    world = makeWorld();
    // The README's recipe as written (memctx on PATH is the built bin).
    writeSettings(world, { statusLine: { type: 'command', command: 'memctx status --statusline', padding: 0 } });
    terminal = await openTerminal(world, { turns: [{ content: [{ type: 'text', text: 'Hello from the stand-in.' }], usage: USAGE }] });
  });
  afterAll(async () => {
    await terminal?.close();
    world?.cleanup();
  });

  it('shows the neutral line before any usage', async () => {
    const [line] = await terminal.waitFor(/^ *○ ctx –.*$/m);
    expect(line.trim()).toBe('○ ctx – · Opus 5.5');
  });

  it('shows the percentage the stand-in usage implies after a reply', async () => {
    terminal.type('say hello');
    await terminal.waitFor(/Hello from the stand-in\./);
    const [line] = await terminal.waitFor(/^ *● \d+%.*$/m);
    expect(line.trim()).toBe('● 84% 840k/1M · Opus 5.5 yellow');
    expect(terminal.requests.filter((r) => r.agent)).toHaveLength(1);
  });
});
