/** The `lint` tool: memory hygiene findings, with paths under /memories, at most LIST_LIMIT of them, secrets masked. */
import { inMemoriesTerms } from '../../kernel/memory-errors.js';
import { LintInput, LintOutput } from './schema.js';
import { defineTool, structuredResult } from '../../kernel/mcp/tool.js';
import { lintMemory } from './lint.js';
import { lintSetup } from '../../kernel/lint/setup.js';
import { redactSecrets } from '../../kernel/lint/secrets.js';
import { capList } from '../../kernel/mcp/limits.js';
import type { Finding } from '../../kernel/lint/types.js';

/** A /memories path (or a memory path) as the memory path it names, without a trailing slash. */
const memoryPath = (path: string) => path.replace(/^\/memories(?:\/|$)/, '').replace(/\/+$/, '');

/** The findings the filters keep: one rule, one file or folder. */
function narrowed(findings: readonly Finding[], rule: string | undefined, path: string | undefined): Finding[] {
  const at = path === undefined ? undefined : memoryPath(path);
  return findings.filter((f) => (rule === undefined || f.ruleId === rule) && (at === undefined || at === '' || f.file === at || f.file.startsWith(`${at}/`)));
}

/** What the model reads about the tool: what it does, when to use it, its limits. */
const DESCRIPTION = [
  'Check the memory for problems: invalid frontmatter, a stale or too long MEMORY.md, duplicates, broken references,',
  'secrets, stale decisions and issues. Returns findings (file, line, rule, severity, message); fix them with `memory`.',
  'At most 100 findings are listed (leftOut counts the rest): narrow with `rule` or `path` (a file or folder under /memories).',
].join(' ');

export default defineTool({
  name: 'lint',
  title: 'Check memory hygiene',
  description: DESCRIPTION,
  input: LintInput,
  output: LintOutput,
  // It fixes nothing, but writes memctx's scan cache under .memctx/.
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(args, { root, io }) {
    const { result } = await lintMemory(lintSetup({ memoryDir: root }, io), {}, io);
    const kept = narrowed(result.findings, args.rule, args.path);
    const { shown, left } = capList(kept.map((f) => ({ file: `/memories/${f.file}`, line: f.line ?? null, rule: f.ruleId, severity: f.severity, message: inMemoriesTerms(f.message, root) })));
    // File names and quoted text are memory text: masked like every other answer that carries it, whatever a disable comment says.
    const findings = JSON.parse(await redactSecrets(JSON.stringify(shown))) as typeof shown;
    const hint = 'narrow with rule (e.g. "security/secret") or path (a file or folder under /memories), or run `memctx lint` in a terminal for the full report';
    const leftOut = left ? { findings: left, hint } : null;
    const lines = findings.map((f) => `${f.file}${f.line ? `:${f.line}` : ''}: ${f.severity} ${f.message} (${f.rule})`);
    if (leftOut) lines.push(`… ${left} more finding${left === 1 ? '' : 's'} left out (an answer lists at most ${shown.length}); ${hint}`);
    const count = (severity: string) => kept.filter((f) => f.severity === severity).length;
    return structuredResult({ findings, errorCount: count('error'), warningCount: count('warning'), leftOut }, lines.length ? lines.join('\n') : 'no problems');
  },
});
