// Times the whole scenario set and prints the figures the scenarios recorded.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const started = Date.now();
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
