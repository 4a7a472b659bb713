/** `verify`'s input and result: one definition for the MCP tool and the library. */
import * as v from 'valibot';
import { texts } from '../../kernel/schema.js';

/** What the MCP `verify` tool takes: the memory files checked against the code. */
export const VerifyInput = v.strictObject({
  paths: v.pipe(texts('memory files under /memories that were checked against the code and still hold (e.g. ["/memories/project_auth.md"])'), v.minLength(1, 'is empty')),
});

export const VerifyOutput = v.object({
  commit: v.string(),
  verified: v.array(v.string()),
  problems: v.array(v.object({ file: v.string(), message: v.string() })),
});
