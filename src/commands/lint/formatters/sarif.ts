import { createHash } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import type { LintResult } from '../../../kernel/lint/types.js';
import type { FormatOptions } from './types.js';

const SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

/**
 * A rule's documentation in the package and the repository: docs/rules/<id>.md (content/stale → docs/rules/content/stale.md).
 * @public scripts/rule-docs.mjs imports it from dist/, which knip cannot follow.
 */
export function ruleDocPath(id: string): string {
  return `docs/rules/${id}.md`;
}

/** GitHub code scanning's severity (0-10) for security rules. */
const SECURITY_SEVERITY: Record<string, string> = { 'security/secret': '9.0', 'frontmatter/js-engine': '7.0' };

function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

function level(setting: string | undefined): 'error' | 'warning' | 'none' {
  return setting === 'error' ? 'error' : setting === 'off' ? 'none' : 'warning';
}

/** SARIF 2.1.0 for code scanning: every rule in a stable order, paths relative to the repository root (%SRCROOT%). */
export function sarifLog(result: LintResult, options: FormatOptions): Record<string, unknown> {
  const ids = options.rules.map((r) => r.id);
  // Links only where package.json names a home page or repository: never a guessed address that 404s.
  const docUri = (id: string) => (options.links?.repository ? `${options.links.repository}/blob/HEAD/${ruleDocPath(id)}` : undefined);
  const rules = options.rules.map((rule) => ({
    id: rule.id,
    name: rule.id.replace(/(^|[/-])([a-z])/g, (_m, _sep: string, c: string) => c.toUpperCase()),
    shortDescription: { text: rule.description.split(/(?<=\.)\s/)[0] },
    fullDescription: { text: rule.description },
    ...(docUri(rule.id) ? { helpUri: docUri(rule.id) } : {}),
    help: {
      text: `${rule.description}${rule.fixable ? ' `memctx lint --fix` fixes it.' : ''} Silence it for one file with <!-- memctx-disable ${rule.id} -->, or everywhere in memctx.config.json.`,
      markdown: `**${rule.id}**: ${rule.description}${rule.fixable ? ' Run `memctx lint --fix` to fix it.' : ''}\n\nSilence it for one file with \`<!-- memctx-disable ${rule.id} -->\`, or set \`"rules": { "${rule.id}": "off" }\` in \`memctx.config.json\`. ${docUri(rule.id) ? `[Documentation](${docUri(rule.id)})` : `Documentation: \`${ruleDocPath(rule.id)}\` in the memctx package.`}`,
    },
    defaultConfiguration: { level: level(options.config.rules[rule.id]) },
    properties: {
      fixable: rule.fixable,
      tags: [...new Set(['memory-hygiene', rule.id.split('/')[0], ...(SECURITY_SEVERITY[rule.id] ? ['security'] : [])])],
      ...(SECURITY_SEVERITY[rule.id] ? { 'security-severity': SECURITY_SEVERITY[rule.id], precision: 'high' } : {}),
    },
  }));
  // A fingerprint that survives lines moving: the rule, the file and the message, numbered when repeated.
  const seen = new Map<string, number>();
  const fingerprint = (ruleId: string, file: string, message: string): string => {
    const hash = createHash('sha256').update(`${ruleId}\0${file}\0${message}`).digest('hex').slice(0, 32);
    const n = (seen.get(hash) ?? 0) + 1;
    seen.set(hash, n);
    return `${hash}:${n}`;
  };
  const results = result.findings.map((f) => {
    const rel = options.repoPath(f.file);
    const artifactLocation = rel !== undefined ? { uri: encodePath(rel), uriBaseId: '%SRCROOT%' } : { uri: pathToFileURL(options.absolutePath(f.file)).href };
    return {
      ruleId: f.ruleId,
      ruleIndex: ids.indexOf(f.ruleId),
      level: f.severity,
      message: { text: f.message },
      partialFingerprints: { primaryLocationLineHash: fingerprint(f.ruleId, rel ?? f.file, f.message) },
      locations: [{ physicalLocation: { artifactLocation, region: { startLine: f.line ?? 1, startColumn: f.column ?? 1 } } }],
    };
  });
  return {
    $schema: SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'memctx', semanticVersion: options.version, version: options.version, ...(options.links?.home ? { informationUri: options.links.home } : {}), rules } },
        ...(options.repoRoot ? { originalUriBaseIds: { '%SRCROOT%': { uri: pathToFileURL(`${options.repoRoot.replace(/\/$/, '')}/`).href } } } : {}),
        columnKind: 'utf16CodeUnits',
        results,
      },
    ],
  };
}

export function formatSarif(result: LintResult, options: FormatOptions): string {
  return `${JSON.stringify(sarifLog(result, options), null, 2)}\n`;
}
