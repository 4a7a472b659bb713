/** `lint` through MCP: no input; findings and counts out. */
import * as v from 'valibot';

export const LintInput = v.strictObject({});

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
});
