import type { Command } from 'commander';
import { EXIT_OK } from '../../kernel/errors.js';
import { MAX_NAME_LENGTH, MEMORY_KINDS, MEMORY_SEVERITIES, MEMORY_TYPES } from '../../kernel/store/schema.js';
import type { Context } from '../../kernel/cli/context.js';
import { collect, type Runner } from '../../kernel/cli/run.js';
import { readBodyInput } from '../../kernel/cli/input.js';
import { add, type AddFields } from './add.js';
import { lintConfigOnce } from '../../kernel/cli/lint-setup.js';

interface AddFlags extends AddFields {
  body?: string;
  bodyFile?: string;
  force?: boolean;
}

export function register(program: Command, run: Runner): void {
  program
    .command('add')
    .description('create a memory file (never overwrites); the body comes from --body, --body-file or stdin')
    .argument('<path>', 'path inside the memory directory (.md is added when missing)')
    .requiredOption('--name <name>', `short name, at most ${MAX_NAME_LENGTH} characters`)
    .requiredOption('--description <text>', 'one line, shown in MEMORY.md')
    .requiredOption('--type <type>', MEMORY_TYPES.join(' | '))
    .option('--kind <kind>', MEMORY_KINDS.join(' | '))
    .option('--status <status>', 'open | resolved (kind issue), superseded (an outdated decision or state)')
    .option('--severity <level>', `${MEMORY_SEVERITIES.join(' | ')} (kind issue)`)
    .option('--importance <n>', '1-10 (default 5)')
    .option('--tag <tag>', 'a tag (repeatable)', collect)
    .option('--related <path>', 'a related memory file (repeatable)', collect)
    .option('--pinned', 'always pack this file in full')
    .option('--expires <date>', 'ISO date after which the memory is stale')
    .option('--created <date>', 'ISO date or date-time it was created (default: now)')
    .option('--field <key=value>', 'any other frontmatter field; the value is read as YAML (repeatable)', collect)
    .option('--body <text>', 'the body text')
    .option('--body-file <file>', 'read the body from a file (- for stdin)')
    .option('--force', 'keep it even when it nearly duplicates another memory')
    .action(run(runAdd));
}

async function runAdd(ctx: Context, input: string, flags: AddFlags): Promise<number> {
  const { body, bodyFile, force, ...fields } = flags;
  const { created } = await add({ root: ctx.memoryDir(), path: input, fields, force }, {
    now: ctx.io.now,
    lintConfig: lintConfigOnce(ctx),
    readBody: () => readBodyInput(ctx, { body, bodyFile }),
    warn: (message) => ctx.ui.warn(message),
  });
  if (ctx.ui.json) ctx.ui.printJson({ created });
  else ctx.ui.info(`created ${created}`);
  return EXIT_OK;
}
