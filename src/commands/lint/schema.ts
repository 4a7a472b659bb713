/** `lint`'s options, for the CLI's flags; the MCP tool takes none of them (it lints the memory directory as configured). */
import * as v from 'valibot';
import { choice, flag, text, texts, whole } from '../../kernel/schema.js';

const LINT_FORMATS = ['stylish', 'json', 'github', 'sarif'] as const;

export const LintOptions = v.strictObject({
  files: v.optional(texts('report only these memory files; files outside the memory directory are ignored')),
  fix: v.optional(flag('apply safe fixes and report what changed')),
  format: v.optional(choice(LINT_FORMATS, 'output format (default stylish; json with --json)')),
  max_warnings: v.optional(whole('exit 1 when there are more than this many warnings', 0)),
  output_file: v.optional(text('write the report to this file instead of stdout')),
  config: v.optional(text('use this configuration file instead of memctx.config.json or .memory/config.json')),
  print_config: v.optional(flag('print the configuration in effect as JSON and exit')),
});

/** What the MCP `lint` tool takes: no fixes, no report files, the project's own configuration; only filters to narrow a long answer. */
export const LintInput = v.strictObject({
  rule: v.optional(text('only findings of this rule (e.g. "security/secret")')),
  path: v.optional(text('only findings in this file or folder (e.g. "/memories/sessions")')),
});

export const LintOutput = v.object({
  findings: v.array(
    v.object({
      file: v.string(),
      line: v.nullable(v.number()),
      rule: v.string(),
      severity: v.picklist(['error', 'warning']),
      message: v.string(),
    }),
  ),
  errorCount: v.number(),
  warningCount: v.number(),
  /** Findings not listed (the answer lists at most 100), and how to see them. */
  leftOut: v.nullable(v.object({ findings: v.number(), hint: v.string() })),
});
