import type { Command } from 'commander';
import { EXIT_OK, EXIT_PROBLEMS, MemctxError } from '../errors.js';
import type { Context } from './context.js';
import { parseEncoding, parseTranscriptFormat } from './options.js';
import type { Runner } from './run.js';

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
  const { resolve } = await import('node:path');
  const { readTranscript } = await import('../transcript/index.js');
  const format = parseTranscriptFormat(flags.format);
  const keepLast = Number(flags.keepLast);
  if (!/^\s*\d+\s*$/.test(flags.keepLast ?? '') || !Number.isSafeInteger(keepLast)) throw new MemctxError(`--keep-last must be a whole number, got "${flags.keepLast}"`);
  const encoding = parseEncoding(flags.encoding);

  let text: string;
  let name: string;
  if (file === '-') {
    const { readStdinBytes } = await import('./input.js');
    const { assertText } = await import('../sources/transcript-file.js');
    const bytes = await readStdinBytes(ctx.io.stdin);
    name = 'stdin';
    assertText(bytes, name);
    text = bytes.toString('utf8');
  } else {
    const { readTranscriptText } = await import('../sources/transcript-file.js');
    text = readTranscriptText(resolve(ctx.io.cwd, file), file);
    name = file;
  }
  const transcript = readTranscript(text, { format });
  const { compactTranscript, missingMarkedLines } = await import('../capacity/compact.js');
  const header = [`# Transcript: ${name} (compacted by memctx)`];
  const before = compactTranscript(transcript, { verbatim: true, header });
  const after = compactTranscript(transcript, { keepLast, header });
  const missing = missingMarkedLines(after.markdown, after.marked);
  const { loadTokenCounter } = await import('../tokens/index.js');
  const counter = await loadTokenCounter(encoding);
  const tokensBefore = counter.count(before.markdown);
  const tokensAfter = counter.count(after.markdown);
  const saved = tokensBefore - tokensAfter;
  const savedPercent = tokensBefore ? Math.round((saved / tokensBefore) * 1000) / 10 : 0;

  if (flags.out !== undefined) {
    const { writeOutputFile } = await import('../store/write.js');
    // Inside no memory directory (when one is found): a compacted transcript is not a memory file.
    let memoryRoot: string | undefined;
    try {
      memoryRoot = ctx.memoryDir();
    } catch {
      memoryRoot = undefined;
    }
    await writeOutputFile(resolve(ctx.io.cwd, flags.out), after.markdown, { name: flags.out, memoryRoot });
  }
  const notes = transcript.notes.map((n) => n.message);
  if (ctx.ui.json) {
    const report: Record<string, unknown> = {
      file: name,
      format: transcript.format,
      encoding,
      tokensBefore,
      tokensAfter,
      saved,
      savedPercent,
      items: after.items,
      duplicates: after.duplicates,
      condensed: after.condensed,
      confirmations: after.confirmations,
      verbatimFrom: after.verbatimFrom ?? null,
      marked: after.marked.length,
      missing: missing.map((m) => ({ line: m.line, text: m.text })),
      notes,
    };
    if (flags.out !== undefined) report.out = flags.out;
    else report.markdown = after.markdown;
    ctx.ui.printJson(report);
  } else {
    for (const note of notes) ctx.ui.warn(`${name}: ${note}`);
    if (flags.out === undefined) ctx.ui.out(after.markdown);
    const { renderCompactReport } = await import('./ui/capacity.js');
    ctx.ui.note(renderCompactReport({ name, out: flags.out, tokensBefore, tokensAfter, saved, savedPercent, result: after, missing: missing.length }, ctx.ui.errChalk));
  }
  for (const m of missing) ctx.ui.error(new MemctxError(`marked line did not survive compaction: ${JSON.stringify(m.text)}`, { file: name, line: m.line, exitCode: EXIT_PROBLEMS }));
  return missing.length ? EXIT_PROBLEMS : EXIT_OK;
}
