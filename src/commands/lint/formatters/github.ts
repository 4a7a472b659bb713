import { createHash } from 'node:crypto';
import type { LintResult } from '../../../kernel/lint/types.js';
import { formatStylish } from './stylish.js';
import type { FormatOptions } from './types.js';

/**
 * `##[` anywhere in a line and `::` at a line's start are workflow commands to the Actions runner;
 * a zero-width space between the two characters keeps the text readable and inert.
 */
function defuseCommands(line: string): string {
  return line.replace(/##\[/g, '#\u200b#[').replace(/^(\s*):(?=:)/, '$1:\u200b');
}

/** Escaping for a workflow command's message (the text after `::`). */
export function escapeData(text: string): string {
  return defuseCommands(text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A'));
}

/** Escaping for a workflow command's properties (`file=…,line=…`): also `:` and `,`. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * GitHub Actions workflow commands (`::error file=…,line=…,col=…,title=…::message`), one per
 * finding, then the full plain report: GitHub shows only the first few annotations of a step. The
 * plain report runs between `::stop-commands::` and its token (a hash of the report, which the
 * report cannot contain), and each of its lines is defused too.
 */
export function formatGithub(result: LintResult, options: FormatOptions): string {
  const lines = result.findings.map((f) => {
    const props = [`file=${escapeProperty(options.repoPath(f.file) ?? options.absolutePath(f.file))}`];
    if (f.line !== undefined) props.push(`line=${f.line}`, `col=${f.column ?? 1}`);
    props.push(`title=${escapeProperty(`memctx ${f.ruleId}`)}`);
    return `::${f.severity === 'error' ? 'error' : 'warning'} ${props.join(',')}::${escapeData(f.message)}`;
  });
  const report = formatStylish(result, { ...options, displayPath: (file) => options.repoPath(file) ?? options.absolutePath(file) });
  if (report) {
    const token = `memctx-${createHash('sha256').update(report).digest('hex').slice(0, 32)}`;
    lines.push(`::stop-commands::${token}`, ...report.replace(/\n$/, '').split(/\r\n|\r|\n/).map(defuseCommands), `::${token}::`);
  }
  return lines.length ? `${lines.join('\n')}\n` : '';
}
