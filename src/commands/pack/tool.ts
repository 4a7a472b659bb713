/** The `pack` tool: the bundle for a task under a token budget, always Markdown, secrets always masked, the answer under 1 MiB. */
import { PackOutput, PackToolInput, resolvePack, type PackRequest } from './schema.js';
import { ARG_LABEL } from '../../kernel/schema.js';
import { defineTool, type ToolContext } from '../../kernel/mcp/tool.js';
import { pack, type PackActionResult } from '../../kernel/bundle/bundle.js';
import { capList, capText, LIST_LIMIT } from '../../kernel/mcp/limits.js';

/** The most bytes the bundle itself may take: the rest of an answer's MiB is the report. */
const BUNDLE_BYTES = 768 * 1024;

/** Pack; a bundle over BUNDLE_BYTES (a large budget) is packed again at a budget that fits, and says so. */
async function packWithin(request: PackRequest, { root, io }: ToolContext): Promise<PackActionResult> {
  const run = (budget: number) => pack({ root, ...request, budget, format: 'markdown', redactSecrets: true }, { now: io.now, env: io.env });
  let result = await run(request.budget);
  for (let tries = 0; tries < 4; tries++) {
    const bytes = Buffer.byteLength(result.text);
    if (bytes <= BUNDLE_BYTES) break;
    result = await run(Math.max(1, Math.floor((result.tokens * BUNDLE_BYTES * 0.9) / bytes)));
  }
  if (result.budget !== request.budget) {
    result.warnings.unshift(`packed at a budget of ${result.budget} tokens, not ${request.budget}: a bundle through MCP stays under ${BUNDLE_BYTES / 1024} KiB; give a task or focus to choose what goes in`);
  }
  return result;
}

/** The report as structured content: each list cut at LIST_LIMIT entries, with what was not listed and how to narrow. */
function report(result: PackActionResult): { value: Record<string, unknown>; note?: string } {
  const { text: _bundle, problems: _problems, ...rest } = result;
  const files = capList(rest.files);
  const leftOutFiles = capList(rest.leftOut.files);
  const pinned = capList(rest.pinnedLeftOut);
  const warnings = capList(rest.warnings.map((w) => capText(w)));
  const focus = capList(rest.focus);
  const hint = 'give a task or focus, or a smaller budget, to narrow the files; `memctx pack --json` in a terminal lists them all';
  const cut = files.left + leftOutFiles.left + pinned.left + warnings.left + focus.left > 0;
  const notListed = cut ? { files: files.left, leftOutFiles: leftOutFiles.left, pinnedLeftOut: pinned.left, warnings: warnings.left, hint } : null;
  const value = { ...rest, files: files.shown, leftOut: { ...rest.leftOut, files: leftOutFiles.shown }, pinnedLeftOut: pinned.shown, warnings: warnings.shown, focus: focus.shown, notListed };
  const note = cut ? `The report lists at most ${LIST_LIMIT} entries of each list: ${files.left} of ${rest.files.length} files and ${leftOutFiles.left} of ${rest.leftOut.files.length} left-out files not listed; ${hint}.` : undefined;
  return { value: JSON.parse(JSON.stringify(value)) as Record<string, unknown>, note };
}

/** What the model reads about the tool: what it does, when to use it, its limits. */
const DESCRIPTION = [
  'Pack the memory files that matter most into one Markdown bundle under a token budget (whole files first, then',
  'summaries, then index lines). Use it at the start of a task, with `task` describing the work, or to hand work over',
  '(profile handoff-*). Returns the bundle as text and what was included as structured content (at most 100 entries',
  'per list; notListed counts the rest).',
].join(' ');

export default defineTool({
  name: 'pack',
  title: 'Pack memory for a task',
  description: DESCRIPTION,
  input: PackToolInput,
  output: PackOutput,
  // It writes memctx's caches and access counts under .memctx/ (never a memory file).
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  // focus is matched against the memory files' paths and links only, never read from disk.
  // resolvePack checks the arguments against PackToolInput and settles the budget and profile.
  parse: (args) => resolvePack(args, ARG_LABEL, PackToolInput),
  async run(request, ctx) {
    const result = await packWithin(request, ctx);
    const { value, note } = report(result);
    return { content: [{ type: 'text', text: result.text }, ...(note ? [{ type: 'text' as const, text: note }] : [])], structuredContent: value };
  },
});
