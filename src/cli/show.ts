import type { Command } from 'commander';
import { EXIT_OK, EXIT_USAGE, MemctxError } from '../errors.js';
import type { Context } from './context.js';
import type { Runner } from './run.js';

export function register(program: Command, run: Runner): void {
  program
    .command('show')
    .description('print a memory file (with --json: its parsed frontmatter and body)')
    .argument('<path>', 'path inside the memory directory')
    .action(run(runShow));
}

async function runShow(ctx: Context, input: string): Promise<number> {
  const root = ctx.memoryDir();
  const { resolveMemoryPath, isIndexPath } = await import('../store/paths.js');
  const { readMemoryFile, isProblem } = await import('../store/scan.js');
  const target = resolveMemoryPath(root, input);
  const { existsSync } = await import('node:fs');
  const { readRegularFile } = await import('../store/read-file.js');
  const { MAX_FILE_BYTES } = await import('../store/layout.js');
  const readText = () => readRegularFile(target.abs, { name: target.rel, maxBytes: MAX_FILE_BYTES, what: 'memory file' }).toString('utf8');
  if (!existsSync(target.abs)) {
    throw new MemctxError(`no memory file ${target.rel}`, { hint: 'run `memctx ls` to see the files' });
  }
  if (isIndexPath(target.rel)) {
    const text = readText();
    if (ctx.ui.json) ctx.ui.printJson({ path: target.rel, text });
    else ctx.ui.out(text);
    return EXIT_OK;
  }
  const file = readMemoryFile(root, target.rel);
  if (isProblem(file)) {
    throw new MemctxError(file.message, { file: target.rel, line: file.line, hint: file.hint, exitCode: EXIT_USAGE });
  }
  if (ctx.ui.json) ctx.ui.printJson(file);
  else {
    const text = readText();
    ctx.ui.out(text);
    const { secretWarnings } = await import('../lint/secrets.js');
    for (const warning of await secretWarnings([{ path: target.rel, text }])) ctx.ui.warn(warning);
  }
  const { recordAccess } = await import('../cache/stats.js');
  try {
    await recordAccess(root, [target.rel], ctx.io.now());
  } catch (err) {
    ctx.ui.warn(`could not record the access in .memctx/stats.json (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  return EXIT_OK;
}
