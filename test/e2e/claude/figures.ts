// Figures the scenarios measure, printed together at the end of the run by global-setup.ts.
import { appendFileSync } from 'node:fs';

export function recordFigure(name: string, value: number): void {
  console.log(`figure: ${name}: ${value}`);
  const path = process.env.MEMCTX_E2E_FIGURES;
  if (path) appendFileSync(path, JSON.stringify({ name, value }) + '\n');
}
