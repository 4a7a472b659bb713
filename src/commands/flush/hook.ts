/**
 * `flush --hook` and the terminal report of a flush. The command lines the agents' hooks run
 * (kernel/cli/route.ts) carry only memctx's own defaults: main.ts runs them here with hookRequest's
 * request, without commander or the schema (valibot: a sixth of the hook's start-up); a test holds
 * that the schema settles those flags to the same request. cli.ts runs every other `--hook` command
 * line here after the schema.
 */
import { EXIT_OK } from '../../kernel/errors.js';
import type { Context } from '../../kernel/cli/context.js';
import { hookDeps } from '../../kernel/cli/input.js';
import { notLoggedNote } from '../../kernel/state/flush-log.js';
import { DEFAULT_MAX, DEFAULT_TARGET } from '../../kernel/summary/limits.js';
import { DEFAULT_ENCODING } from '../../kernel/tokens/encodings.js';
import { flushHook, type FlushOutcome } from './flush.js';
import type { FlushRequest } from './schema.js';
import { DEFAULT_SUMMARIZE_TIMEOUT } from '../../kernel/summary/summarizers.js';

/** The request the schema makes of `flush --hook` (and `--summarize-with AGENT`) with commander's defaults. */
export function hookRequest(summarizeWith?: string): FlushRequest {
  return { hook: true, template: 'session', sessionId: undefined, target: DEFAULT_TARGET, max: DEFAULT_MAX, encoding: DEFAULT_ENCODING, dryRun: undefined, agentSummary: undefined, summarizeWith, summarizeTimeout: DEFAULT_SUMMARIZE_TIMEOUT };
}

/** The hook: what was written (or why nothing was) on stderr, problems in the flush log; exit code 0 whatever happens. */
export async function runFlushHook(ctx: Context, options: FlushRequest): Promise<number> {
  const result = await flushHook(options, hookDeps(ctx));
  if (result.outcome) report(ctx, options, result.outcome);
  if (result.skipped) ctx.ui.note(`memctx flush --hook: skipped: ${result.skipped}\n`);
  if (result.error) {
    ctx.ui.note(`memctx flush --hook: ${result.error.message}${notLoggedNote(result)}\n`, { quietable: false });
    if (ctx.io.env.MEMCTX_DEBUG && result.error.stack) ctx.ui.note(`${result.error.stack}\n`, { quietable: false });
  }
  return EXIT_OK;
}

/** A flush's report: the record with --json, the file on --dry-run, else the line saying what was written. */
export function report(ctx: Context, flags: { dryRun?: boolean }, outcome: FlushOutcome): void {
  const { plan } = outcome;
  for (const note of outcome.notes) ctx.ui.note(`memctx: ${note}\n`);
  for (const warning of outcome.warnings) ctx.ui.warn(warning);
  if (ctx.ui.json) {
    ctx.ui.printJson({
      path: outcome.path,
      written: outcome.written,
      replaced: outcome.replaced,
      template: plan.template.name,
      tokens: plan.tokens,
      originalTokens: plan.originalTokens,
      target: plan.target,
      max: plan.max,
      shortened: plan.cuts.length > 0,
      cuts: plan.cutLines,
      empty: plan.empty,
      warnings: outcome.warnings,
      frontmatter: plan.frontmatter,
      fields: plan.values,
      ...(outcome.written ? {} : { text: outcome.text }),
    });
    return;
  }
  if (flags.dryRun) {
    ctx.ui.out(outcome.text);
    ctx.ui.note(`memctx: dry run: would write ${outcome.path} (${plan.tokens} tokens)\n`);
    return;
  }
  ctx.ui.info(`${outcome.replaced ? 'updated' : 'wrote'} ${outcome.path} (${plan.tokens} tokens)`);
}
