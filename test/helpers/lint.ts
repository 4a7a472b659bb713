import { parseMemoryText } from '../../src/kernel/store/parse.js';
import type { MemoryFile } from '../../src/kernel/store/types.js';
import { defaultLintConfig } from '../../src/kernel/lint/config.js';
import { RULES } from '../../src/kernel/lint/rules/index.js';
import { runLint } from '../../src/kernel/lint/runner.js';
import type { LintConfig, LintInput, LintResult } from '../../src/kernel/lint/types.js';

export const NOW = new Date('2026-11-21T12:00:00Z');

/** A parsed memory file from its text. */
export function mem(path: string, text: string, mtimeMs = NOW.getTime()): MemoryFile {
  return parseMemoryText(path, text, { mtimeMs, size: Buffer.byteLength(text) });
}

/** Frontmatter text from key/value pairs, plus a body. */
export function doc(fields: Record<string, string | number>, body = 'Body text.\n'): string {
  return `---\n${Object.entries(fields).map(([k, v]) => `${k}: ${v}`).join('\n')}\n---\n${body}`;
}

export const VALID = { name: 'Auth refactor', description: 'Backend auth migration status', type: 'project', updated: '2026-11-20' };

/** The default config with only the given rules on. */
export function only(...ids: string[]): LintConfig {
  const config = defaultLintConfig(RULES);
  for (const id of Object.keys(config.rules)) if (!ids.includes(id)) config.rules[id] = 'off';
  return config;
}

export function lint(ids: string[] | LintConfig, input: Partial<LintInput> & { files?: MemoryFile[] }): Promise<LintResult> {
  const config = Array.isArray(ids) ? only(...ids) : ids;
  return runLint({ files: [], problems: [], now: NOW, config, ...input });
}

/** Findings as compact strings: "file:line:col rule message". */
export function lines(result: LintResult): string[] {
  return result.findings.map((f) => `${f.file}:${f.line ?? '-'}:${f.column ?? '-'} ${f.ruleId} ${f.message}`);
}
