// Installs and names the Claude Code under test, times the whole scenario set and prints the figures
// the scenarios recorded.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default async function setup(): Promise<() => void> {
  const started = Date.now();
  // Install (first run) and name the version under test before any scenario starts.
  // @ts-expect-error plain JavaScript module shared with .ci/run
  const { CLAUDE_VERSION, ensureClaude } = await import('./install.mjs');
  const installed = process.env.MEMCTX_CLAUDE_UNAVAILABLE ? { error: process.env.MEMCTX_CLAUDE_UNAVAILABLE } : ensureClaude();
  console.log(installed.error ? `claude e2e: Claude Code ${CLAUDE_VERSION} unavailable: ${installed.error}` : `claude e2e: Claude Code ${installed.version} (${installed.bin})`);
  const dir = mkdtempSync(join(tmpdir(), 'memctx-claude-figures-'));
  process.env.MEMCTX_E2E_FIGURES = join(dir, 'figures.jsonl');
  return () => {
    const path = process.env.MEMCTX_E2E_FIGURES!;
    const lines = existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : [];
    for (const line of lines) {
      const { name, value } = JSON.parse(line);
      console.log(`claude e2e figure: ${name}: ${value}`);
    }
    console.log(`claude e2e figure: wall time of the scenario set (s): ${((Date.now() - started) / 1000).toFixed(1)}`);
    rmSync(dir, { recursive: true, force: true });
  };
}
