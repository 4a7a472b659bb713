import { singleLine } from '../../../kernel/markdown/escape.js';
import type { Finding, LintResult } from '../../../kernel/lint/types.js';
import type { FormatOptions } from './types.js';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const width = (text: string) => [...text].length;
const pad = (text: string, n: number) => text + ' '.repeat(Math.max(0, n - width(text)));

function groupByFile(findings: Finding[]): Map<string, Finding[]> {
  const groups = new Map<string, Finding[]>();
  for (const f of findings) {
    const list = groups.get(f.file);
    if (list) list.push(f);
    else groups.set(f.file, [f]);
  }
  return groups;
}

/** ESLint's "stylish" layout: findings grouped under each file, then a summary. Empty when clean. */
export function formatStylish(result: LintResult, options: FormatOptions): string {
  if (result.findings.length === 0) return '';
  const { chalk } = options;
  const out: string[] = [];
  for (const [file, findings] of groupByFile(result.findings)) {
    const rows = findings.map((f) => [f.line ? `${f.line}:${f.column ?? 1}` : '-', f.severity, singleLine(f.message), f.ruleId]);
    const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => width(r[i]))));
    out.push(chalk.underline(singleLine(options.displayPath(file))));
    for (const [where, severity, message, ruleId] of rows) {
      const sev = severity === 'error' ? chalk.red(pad(severity, widths[1])) : chalk.yellow(pad(severity, widths[1]));
      out.push(`  ${chalk.dim(' '.repeat(widths[0] - width(where)) + where)}  ${sev}  ${pad(message, widths[2])}  ${chalk.dim(ruleId)}`);
    }
    out.push('');
  }
  const total = result.errorCount + result.warningCount;
  const summary = `✖ ${plural(total, 'problem')} (${plural(result.errorCount, 'error')}, ${plural(result.warningCount, 'warning')})`;
  out.push(result.errorCount ? chalk.red.bold(summary) : chalk.yellow.bold(summary));
  if (result.fixableErrorCount || result.fixableWarningCount) {
    const fixable = `  ${plural(result.fixableErrorCount, 'error')} and ${plural(result.fixableWarningCount, 'warning')} potentially fixable with \`memctx lint --fix\`.`;
    out.push(result.errorCount ? chalk.red.bold(fixable) : chalk.yellow.bold(fixable));
  }
  return `${out.join('\n')}\n`;
}
