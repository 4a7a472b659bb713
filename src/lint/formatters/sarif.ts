import { pathToFileURL } from 'node:url';
import type { LintResult } from '../types.js';
import type { FormatOptions } from './types.js';

const SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

function level(setting: string | undefined): 'error' | 'warning' | 'none' {
  return setting === 'error' ? 'error' : setting === 'off' ? 'none' : 'warning';
}

/** SARIF 2.1.0 for code scanning: every rule in a stable order, paths relative to the repository root (%SRCROOT%). */
export function sarifLog(result: LintResult, options: FormatOptions): Record<string, unknown> {
  const ids = options.rules.map((r) => r.id);
  const rules = options.rules.map((rule) => ({
    id: rule.id,
    name: rule.id.replace(/(^|[/-])([a-z])/g, (_m, _sep: string, c: string) => c.toUpperCase()),
    shortDescription: { text: rule.description.split(/(?<=\.)\s/)[0] },
    fullDescription: { text: rule.description },
    defaultConfiguration: { level: level(options.config.rules[rule.id]) },
    properties: { fixable: rule.fixable, tags: ['memory-hygiene', rule.id.split('/')[0]] },
  }));
  const results = result.findings.map((f) => {
    const rel = options.repoPath(f.file);
    const artifactLocation = rel !== undefined ? { uri: encodePath(rel), uriBaseId: '%SRCROOT%' } : { uri: pathToFileURL(options.absolutePath(f.file)).href };
    return {
      ruleId: f.ruleId,
      ruleIndex: ids.indexOf(f.ruleId),
      level: f.severity,
      message: { text: f.message },
      locations: [{ physicalLocation: { artifactLocation, region: { startLine: f.line ?? 1, startColumn: f.column ?? 1 } } }],
    };
  });
  return {
    $schema: SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'memctx', semanticVersion: options.version, version: options.version, informationUri: 'https://www.npmjs.com/package/memctx', rules } },
        columnKind: 'utf16CodeUnits',
        results,
      },
    ],
  };
}

export function formatSarif(result: LintResult, options: FormatOptions): string {
  return `${JSON.stringify(sarifLog(result, options), null, 2)}\n`;
}
