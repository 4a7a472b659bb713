/** The `lint` tool: memory hygiene findings, with paths under /memories. */
import { inMemoriesTerms } from '../../actions/memory-errors.js';
import { LintInput, LintOutput } from '../../schemas/lint.js';
import { TOOL_TEXT } from '../descriptions.js';
import { defineTool, structuredResult } from '../tool.js';
import { lintSetup, lintMemory } from '../../actions/lint.js';

export default defineTool({
  name: 'lint',
  title: 'Check memory hygiene',
  description: TOOL_TEXT.lint,
  input: LintInput,
  output: LintOutput,
  // It fixes nothing, but writes memctx's scan cache under .memctx/.
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(_args, { root, io }) {
    const { result } = await lintMemory(lintSetup({ memoryDir: root }, io), {}, io);
    const findings = result.findings.map((f) => ({ file: `/memories/${f.file}`, line: f.line ?? null, rule: f.ruleId, severity: f.severity, message: inMemoriesTerms(f.message, root) }));
    const summary = findings.length ? findings.map((f) => `${f.file}${f.line ? `:${f.line}` : ''}: ${f.severity} ${f.message} (${f.rule})`).join('\n') : 'no problems';
    return structuredResult({ findings, errorCount: result.errorCount, warningCount: result.warningCount }, summary);
  },
});
