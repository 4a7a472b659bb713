import type { Finding, LintResult } from '../types.js';
import type { FormatOptions } from './types.js';

interface JsonMessage {
  ruleId: string;
  severity: 1 | 2;
  message: string;
  line?: number;
  column?: number;
}

export interface JsonFileResult {
  filePath: string;
  messages: JsonMessage[];
  suppressedMessages: never[];
  errorCount: number;
  fatalErrorCount: number;
  warningCount: number;
  fixableErrorCount: number;
  fixableWarningCount: number;
  usedDeprecatedRules: never[];
}

/** ESLint's JSON shape: one entry per checked file (absolute path), severity 2 error / 1 warning. */
export function jsonResults(result: LintResult, options: FormatOptions): JsonFileResult[] {
  const byFile = new Map<string, Finding[]>(result.checked.map((file) => [file, []]));
  for (const f of result.findings) {
    const list = byFile.get(f.file);
    if (list) list.push(f);
    else byFile.set(f.file, [f]);
  }
  const files = [...byFile.keys()].sort();
  return files.map((file) => {
    const findings = byFile.get(file)!;
    const count = (severity: string, fixable = false) => findings.filter((f) => f.severity === severity && (!fixable || f.fix)).length;
    return {
      filePath: options.absolutePath(file),
      messages: findings.map((f) => ({
        ruleId: f.ruleId,
        severity: f.severity === 'error' ? 2 : 1,
        message: f.message,
        ...(f.line !== undefined ? { line: f.line, column: f.column ?? 1 } : {}),
      })),
      suppressedMessages: [],
      errorCount: count('error'),
      fatalErrorCount: 0,
      warningCount: count('warning'),
      fixableErrorCount: count('error', true),
      fixableWarningCount: count('warning', true),
      usedDeprecatedRules: [],
    };
  });
}

export function formatJson(result: LintResult, options: FormatOptions): string {
  return `${JSON.stringify(jsonResults(result, options), null, 2)}\n`;
}
