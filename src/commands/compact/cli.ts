import type { Command } from 'commander';
import { EXIT_OK, EXIT_PROBLEMS, MemctxError } from '../../kernel/errors.js';
import type { Context } from '../../kernel/cli/context.js';
import type { Runner } from '../../kernel/cli/run.js';
import { compact } from './compact.js';
import { CLI_LABEL, fromFlags } from '../../kernel/schema.js';
import { resolveCompact } from './schema.js';
import { readStdinBytes } from '../../kernel/cli/input.js';
import { renderCompactReport } from '../../kernel/cli/capacity.js';

interface CompactFlags {
  out?: string;
  format?: string;
  keepLast?: string;
  encoding?: string;
}

export function register(program: Command, run: Runner): void {
  program
    .command('compact')
    .description('write a compacted Markdown rendition of a transcript and report the tokens saved')
    .argument('<file>', 'transcript (Claude Code or Codex JSONL, OpenAI messages JSON, plain text); - for stdin')
    .option('--out <path>', 'write the Markdown to this file instead of stdout')
    .option('--format <format>', 'read the file as this format: claude, codex, openai or text (default: detected)')
    .option('--keep-last <n>', 'exchanges at the end kept verbatim', '10')
    .option('--encoding <name>', 'tokenizer for the counts: o200k_base (default) or cl100k_base')
    .action(run(runCompact));
}

async function runCompact(ctx: Context, file: string, flags: CompactFlags): Promise<number> {
  const request = resolveCompact(fromFlags({ file, ...flags }, ['keep_last']), CLI_LABEL);
  const report = await compact(request, {
    cwd: ctx.io.cwd,
    readStdin: () => readStdinBytes(ctx.io.stdin),
    memoryRoot: () => {
      try {
        return ctx.memoryDir();
      } catch {
        return undefined;
      }
    },
  });
  const { name, result: after, missing, notes } = report;
  if (ctx.ui.json) {
    const json: Record<string, unknown> = {
      file: name,
      format: report.format,
      encoding: report.encoding,
      tokensBefore: report.tokensBefore,
      tokensAfter: report.tokensAfter,
      saved: report.saved,
      savedPercent: report.savedPercent,
      items: after.items,
      duplicates: after.duplicates,
      condensed: after.condensed,
      confirmations: after.confirmations,
      verbatimFrom: after.verbatimFrom ?? null,
      marked: after.marked.length,
      missing: missing.map((m) => ({ line: m.line, text: m.text })),
      notes,
    };
    if (flags.out !== undefined) json.out = flags.out;
    else json.markdown = after.markdown;
    ctx.ui.printJson(json);
  } else {
    for (const note of notes) ctx.ui.warn(`${name}: ${note}`);
    if (flags.out === undefined) ctx.ui.out(after.markdown);
    ctx.ui.note(renderCompactReport({ ...report, out: flags.out, missing: missing.length }, ctx.ui.errChalk));
  }
  for (const m of missing) ctx.ui.error(new MemctxError(`marked line did not survive compaction: ${JSON.stringify(m.text)}`, { file: name, line: m.line, exitCode: EXIT_PROBLEMS }));
  return missing.length ? EXIT_PROBLEMS : EXIT_OK;
}
