import type { Finding, LintResult } from '../../../kernel/lint/types.js';
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
  return [...eachJsonResult(result, options)];
}

/** jsonResults one file at a time, so a report on 100,000 files never holds every entry at once. */
function* eachJsonResult(result: LintResult, options: FormatOptions): Generator<JsonFileResult> {
  const byFile = new Map<string, Finding[]>(result.checked.map((file) => [file, []]));
  for (const f of result.findings) {
    const list = byFile.get(f.file);
    if (list) list.push(f);
    else byFile.set(f.file, [f]);
  }
  const files = [...byFile.keys()].sort();
  for (const file of files) {
    const findings = byFile.get(file)!;
    const counts = { error: 0, warning: 0, fixableError: 0, fixableWarning: 0 };
    for (const f of findings) {
      if (f.severity === 'error') {
        counts.error++;
        if (f.fix) counts.fixableError++;
      } else if (f.severity === 'warning') {
        counts.warning++;
        if (f.fix) counts.fixableWarning++;
      }
    }
    yield {
      filePath: options.absolutePath(file),
      messages: findings.map((f) => ({
        ruleId: f.ruleId,
        severity: f.severity === 'error' ? 2 : 1,
        message: f.message,
        ...(f.line !== undefined ? { line: f.line, column: f.column ?? 1 } : {}),
      })),
      suppressedMessages: [],
      errorCount: counts.error,
      fatalErrorCount: 0,
      warningCount: counts.warning,
      fixableErrorCount: counts.fixableError,
      fixableWarningCount: counts.fixableWarning,
      usedDeprecatedRules: [],
    };
  }
}

/**
 * The report exactly as JSON.stringify(jsonResults(…), null, 2) writes it, a batch of `batch` entries
 * per piece: each batch is one stringified array without its brackets.
 */
export function* jsonPieces(result: LintResult, options: FormatOptions, batch = 1000): Generator<string> {
  let entries: JsonFileResult[] = [];
  let first = true;
  const piece = () => {
    const text = JSON.stringify(entries, null, 2);
    const out = `${first ? '[' : ','}${text.slice(1, -2)}`;
    entries = [];
    first = false;
    return out;
  };
  for (const entry of eachJsonResult(result, options)) {
    entries.push(entry);
    if (entries.length >= batch) yield piece();
  }
  if (entries.length) yield piece();
  yield first ? '[]\n' : '\n]\n';
}
