import { renderIndexFile } from '../memindex/merge.js';
import { INDEX_FILE } from '../store/layout.js';
import type { MemoryFile } from '../store/types.js';
import type { TokenCounter } from '../tokens/index.js';
import { repoView } from './repo.js';
import { RULES } from './rules/index.js';
import { fileText, textWithin } from './text.js';
import { maskSecretsIn } from './secrets.js';
import type { Finding, LintInput, LintResult, LintRule, RuleContext, Severity } from './types.js';

/** The rules the configuration leaves on, with their severity. */
export function activeRules(config: LintInput['config'], rules: LintRule[] = RULES): { rule: LintRule; severity: Severity }[] {
  return rules
    .map((rule) => ({ rule, setting: config.rules[rule.id] ?? (rule.defaultSeverity === 'error' ? 'error' : 'warn') }))
    .filter(({ setting }) => setting !== 'off')
    .map(({ rule, setting }) => ({ rule, severity: setting === 'error' ? ('error' as const) : ('warning' as const) }));
}

function compareFindings(a: Finding, b: Finding): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0) || (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0);
}

function dirsOf(paths: Iterable<string>): Set<string> {
  const dirs = new Set<string>();
  for (const p of paths) {
    for (let at = p.lastIndexOf('/'); at > 0; at = p.lastIndexOf('/', at - 1)) {
      const dir = p.slice(0, at);
      if (dirs.has(dir)) break;
      dirs.add(dir);
    }
  }
  return dirs;
}

function createContext(input: LintInput): RuleContext {
  const texts = new Map<MemoryFile, string>();
  const tokens = new Map<MemoryFile, number>();
  let expected: string | Error | undefined;
  let counter: Promise<TokenCounter> | undefined;
  // The scanned files always count, so a symlinked file or an odd name the listing skips is not reported as missing.
  const memoryPaths = new Set([...(input.memoryPaths ?? []), ...input.files.map((f) => f.path), ...input.problems.map((p) => p.path)]);
  const textOf = (file: MemoryFile) => {
    let text = texts.get(file);
    if (text === undefined) texts.set(file, (text = fileText(file)));
    return text;
  };
  return {
    files: input.files,
    problems: input.problems,
    indexText: input.indexText,
    indexUnreadable: Boolean(input.indexUnreadable),
    config: input.config,
    thresholds: input.config.thresholds,
    memoryPaths,
    memoryDirs: dirsOf(memoryPaths),
    problemTexts: new Map(Object.entries(input.problemTexts ?? {})),
    secrets: new Set<string>(),
    repo: input.repoFiles ? repoView(input.repoFiles, input.repoIgnoredDirs, input.memoryPrefix) : undefined,
    drift: input.drift,
    outsideAnchors: input.outsideAnchors,
    now: input.now,
    memo: input.memo,
    textOf,
    async tokensOver(file, limit) {
      if (textWithin(file, limit)) return undefined;
      let n = tokens.get(file);
      if (n === undefined) {
        const kept = input.memo?.get(file.path, 'tokens');
        if (typeof kept === 'number') n = kept;
        else {
          if (!input.tokens) throw new Error('a token counter is needed for the token-size rules');
          counter ??= typeof input.tokens === 'function' ? input.tokens() : Promise.resolve(input.tokens);
          n = (await counter).count(textOf(file));
          input.memo?.set(file.path, 'tokens', n);
        }
        tokens.set(file, n);
      }
      return n > limit ? n : undefined;
    },
    expectedIndex() {
      if (expected === undefined) {
        try {
          const { indexMaxLines, indexMaxBytes } = input.config.thresholds;
          expected = renderIndexFile(input.indexText, input.files, { maxLines: indexMaxLines, maxBytes: indexMaxBytes });
        } catch (err) {
          expected = err as Error;
        }
      }
      return expected;
    },
  };
}

/**
 * Run every enabled rule over the scanned memory directory. Pure: the files, MEMORY.md's text, the
 * repository file list, the time and the token counter are all passed in; nothing is read or written.
 */
export async function runLint(input: LintInput, rules: LintRule[] = RULES): Promise<LintResult> {
  const ctx = createContext(input);
  const findings: Finding[] = [];
  const active = activeRules(input.config, rules);
  // Every rule starts in turn, and its findings are taken in the same order: a rule awaiting git (drift)
  // lets the later ones run meanwhile. A failure is thrown where it was before; the later rules' are left.
  const checks = active.map(({ rule }, i) => {
    input.onProgress?.(rule.id, i, active.length);
    const reports = (async () => rule.check(ctx))();
    reports.catch(() => undefined);
    return reports;
  });
  for (const [i, { rule, severity }] of active.entries()) {
    for (const report of await checks[i]) findings.push({ ...report, ruleId: rule.id, severity });
  }
  // A value the secret rule found is masked wherever another rule quotes it (invalid-date, parse-error …).
  if (ctx.secrets?.size) for (const f of findings) f.message = maskSecretsIn(f.message, ctx.secrets);
  findings.sort(compareFindings);
  const count = (severity: Severity, fixable: boolean) => findings.filter((f) => f.severity === severity && (!fixable || f.fix)).length;
  const checked = [...new Set([...input.files.map((f) => f.path), ...input.problems.map((p) => p.path), ...(input.indexText !== undefined || input.indexUnreadable ? [INDEX_FILE] : [])])].sort();
  return {
    findings,
    errorCount: count('error', false),
    warningCount: count('warning', false),
    fixableErrorCount: count('error', true),
    fixableWarningCount: count('warning', true),
    checked,
  };
}
