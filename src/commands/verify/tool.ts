/** The `verify` tool: record that memories still hold at HEAD, after the agent checked them against the code. */
import { inMemoriesTerms } from '../../kernel/memory-errors.js';
import { verify } from './verify.js';
import { VerifyInput, VerifyOutput } from './schema.js';
import { defineTool, structuredResult } from '../../kernel/mcp/tool.js';

/** A /memories path as the memory path it names. */
const memoryPath = (path: string) => path.replace(/^\/memories(?:\/|$)/, '');

/** What the model reads about the tool: what it does, when to use it, its limits. */
const DESCRIPTION = [
  'Record that memories still hold: sets `verified:` to the current commit. Use it after checking a memory that `lint`',
  'or a bundle marks as drifted (the code it names changed since) against the code, and after fixing it. Give the paths',
  'under /memories; a file that cannot be stamped is named in problems and the others are still stamped.',
].join(' ');

export default defineTool({
  name: 'verify',
  title: 'Mark memories as checked',
  description: DESCRIPTION,
  input: VerifyInput,
  output: VerifyOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(args, { root, io }) {
    const result = await verify({ root, paths: args.paths.map(memoryPath) }, io);
    const verified = result.verified.map((f) => `/memories/${f}`);
    const problems = result.problems.map((p) => ({ file: `/memories/${memoryPath(p.file)}`, message: inMemoriesTerms(p.message, root) }));
    const lines = [...verified.map((f) => `verified ${f} at ${result.commit.slice(0, 12)}`), ...problems.map((p) => `${p.file}: ${p.message}; not verified`)];
    return structuredResult({ commit: result.commit, verified, problems }, lines.join('\n'));
  },
});
