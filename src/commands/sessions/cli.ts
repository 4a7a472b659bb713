import type { Command } from 'commander';
import { EXIT_OK, EXIT_PROBLEMS } from '../../kernel/errors.js';
import { CLI_LABEL, fromFlags, parseInput } from '../../kernel/schema.js';
import { SessionsOptions } from './schema.js';
import type { Context } from '../../kernel/cli/context.js';
import type { Runner } from '../../kernel/cli/run.js';
import { reportProblems } from '../../kernel/cli/problems.js';
import { sessions } from './sessions.js';
import { renderTable } from '../../kernel/cli/table.js';

interface SessionsFlags {
  field?: string;
  since?: string;
  limit?: string;
}

export function register(program: Command, run: Runner): void {
  program
    .command('sessions')
    .description('list session summaries (newest first), or one field across them: sessions --field decisions --since 14d')
    .option('--field <name>', 'print this field of each session (goal, progress, decisions, changed-files, blockers, next-steps)')
    .option('--since <when>', 'only sessions that ended since then: 30m, 12h, 14d, 2w or a date')
    .option('--limit <n>', 'at most this many sessions (the newest)')
    .action(run(runSessions));
}

async function runSessions(ctx: Context, flags: SessionsFlags): Promise<number> {
  // The options are checked by sessions' one schema (src/commands/sessions/schema.ts).
  const options = parseInput(SessionsOptions, fromFlags({ ...flags }, ['limit']), CLI_LABEL);
  const root = ctx.memoryDir();
  const result = await sessions({ root, ...options }, { now: ctx.io.now });
  reportProblems(ctx, root, result.problems);
  if (ctx.ui.json) {
    ctx.ui.printJson(result.sessions.map((s) => ({ path: s.path, at: s.at ?? null, session_id: s.sessionId ?? null, agent: s.agent ?? null, model: s.model ?? null, started: s.started ?? null, ended: s.ended ?? null, goal: s.goal ?? null, ...(result.field ? { [result.field]: s.items ?? [] } : {}) })));
  } else if (result.field) {
    const blocks = result.sessions.filter((s) => s.items?.length).map((s) => `${ctx.ui.chalk.bold(s.path)}${s.at ? `  ${s.at}` : ''}${s.goal ? `  ${s.goal}` : ''}\n${s.items!.map((i) => `- ${i}`).join('\n')}`);
    if (blocks.length) ctx.ui.out(`${blocks.join('\n\n')}\n`);
  } else {
    const rows = result.sessions.map((s) => [s.path, s.at ?? '-', s.agent ?? '-', s.model ?? '-', s.goal ?? '']);
    if (rows.length) ctx.ui.out(renderTable(rows, ctx.ui.chalk));
  }
  return result.problems.length ? EXIT_PROBLEMS : EXIT_OK;
}
