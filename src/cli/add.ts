import type { Command } from 'commander';
import { EXIT_OK, MemctxError } from '../store/errors.js';
import { MAX_NAME_LENGTH, MEMORY_KINDS, MEMORY_TYPES, isoTimestamp } from '../store/schema.js';
import type { Context } from './context.js';
import { collect, type Runner } from './run.js';
import { readBodyInput } from './input.js';

interface AddFlags {
  name: string;
  description: string;
  type: string;
  kind?: string;
  importance?: string;
  tag?: string[];
  body?: string;
  bodyFile?: string;
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
    .option('--importance <n>', '1-10 (default 5)')
    .option('--tag <tag>', 'a tag (repeatable)', collect)
    .option('--body <text>', 'the body text')
    .option('--body-file <file>', 'read the body from a file (- for stdin)')
    .action(run(runAdd));
}

export function validateFields(flags: Pick<AddFlags, 'name' | 'description' | 'type' | 'kind' | 'importance'>): number | undefined {
  const name = flags.name.trim();
  if (name === '' || name.length > MAX_NAME_LENGTH) throw new MemctxError(`--name must be 1-${MAX_NAME_LENGTH} characters (got ${name.length})`);
  if (/[\r\n]/.test(name)) throw new MemctxError('--name must be one line');
  if (/[\r\n]/.test(flags.description) || flags.description.trim() === '') throw new MemctxError('--description must be one non-empty line');
  if (!(MEMORY_TYPES as readonly string[]).includes(flags.type)) throw new MemctxError(`--type must be one of ${MEMORY_TYPES.join(', ')} (got "${flags.type}")`);
  if (flags.kind !== undefined && !(MEMORY_KINDS as readonly string[]).includes(flags.kind)) throw new MemctxError(`--kind must be one of ${MEMORY_KINDS.join(', ')} (got "${flags.kind}")`);
  if (flags.importance === undefined) return undefined;
  const importance = Number(flags.importance);
  if (!Number.isInteger(importance) || importance < 1 || importance > 10) throw new MemctxError(`--importance must be a whole number from 1 to 10 (got "${flags.importance}")`);
  return importance;
}

async function runAdd(ctx: Context, input: string, flags: AddFlags): Promise<number> {
  const importance = validateFields(flags);
  const root = ctx.memoryDir();
  const { resolveMemoryPath, isIndexPath, entryExists } = await import('../store/paths.js');
  const target = resolveMemoryPath(root, input);
  if (isIndexPath(target.rel)) throw new MemctxError('MEMORY.md is the generated index, not a memory file', { hint: 'choose another path' });
  const body = await readBodyInput(ctx, flags);
  const { newFrontmatter, assembleFile } = await import('../store/serialize.js');
  const now = isoTimestamp(ctx.io.now());
  const frontmatter = newFrontmatter({
    name: flags.name.trim(),
    description: flags.description.trim(),
    type: flags.type,
    kind: flags.kind,
    importance,
    tags: flags.tag?.length ? flags.tag : undefined,
    created: now,
    updated: now,
  });
  const text = assembleFile(frontmatter, body === '' ? '' : `\n${body.endsWith('\n') ? body : `${body}\n`}`, { bom: false, eol: '\n' });
  const { writeFileAtomic } = await import('../store/write.js');
  const { writeAndReindex } = await import('./reindex.js');
  await writeAndReindex(root, async () => {
    // Any entry counts, a broken symlink too.
    if (entryExists(target.abs)) {
      throw new MemctxError(`${target.rel} already exists; add never overwrites`, { hint: 'use `memctx edit` to change it, or choose another path' });
    }
    await writeFileAtomic(target.abs, text);
  }, (message) => ctx.ui.warn(message));
  if (ctx.ui.json) ctx.ui.printJson({ created: target.rel });
  else ctx.ui.info(`created ${target.rel}`);
  return EXIT_OK;
}
