import type { LintResult } from '../types.js';
import { formatStylish } from './stylish.js';
import type { FormatOptions } from './types.js';

/** Escaping for a workflow command's message (the text after `::`). */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escaping for a workflow command's properties (`file=…,line=…`): also `:` and `,`. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * GitHub Actions workflow commands (`::error file=…,line=…,col=…,title=…::message`), one per
 * finding, then the full plain report: GitHub shows only the first few annotations of a step.
 */
export function formatGithub(result: LintResult, options: FormatOptions): string {
  const lines = result.findings.map((f) => {
    const props = [`file=${escapeProperty(options.repoPath(f.file) ?? options.absolutePath(f.file))}`];
    if (f.line !== undefined) props.push(`line=${f.line}`, `col=${f.column ?? 1}`);
    props.push(`title=${escapeProperty(`memctx ${f.ruleId}`)}`);
    return `::${f.severity === 'error' ? 'error' : 'warning'} ${props.join(',')}::${escapeData(f.message)}`;
  });
  const report = formatStylish(result, { ...options, displayPath: (file) => options.repoPath(file) ?? options.absolutePath(file) });
  return `${lines.join('\n')}${lines.length ? '\n' : ''}${report}`;
}
