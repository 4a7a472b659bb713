import type { Command } from 'commander';
import { EXIT_OK } from '../errors.js';
import type { Context } from './context.js';
import type { Runner } from './run.js';

export function register(program: Command, run: Runner): void {
  program
    .command('init')
    .description('create .memory/ with MEMORY.md, templates/ and a .gitignore for .memctx/ (never overwrites)')
    .action(run(runInit));
}

async function runInit(ctx: Context): Promise<number> {
  const { resolve, join } = await import('node:path');
  const { MEMORY_DIR_NAME } = await import('../store/find.js');
  const explicit = ctx.globals.dir ?? ctx.io.env.MEMCTX_DIR;
  const root = ctx.globals.claude ? ctx.memoryDir({ allowMissing: true }) : resolve(ctx.io.cwd, explicit ?? MEMORY_DIR_NAME);
  const { initMemoryDir } = await import('../store/init.js');
  const { displayPath } = await import('./display.js');
  const { planIndex } = await import('../actions/reindex.js');
  const created = await initMemoryDir(root, async () => (await planIndex(root)).text);
  if (ctx.ui.json) {
    ctx.ui.printJson({ dir: root, created });
  } else if (created.length === 0) {
    ctx.ui.info(`${displayPath(ctx.io.cwd, root)} is already set up; nothing changed`);
  } else {
    for (const item of created) ctx.ui.info(`created ${displayPath(ctx.io.cwd, join(root, item))}`);
  }
  return EXIT_OK;
}
