import type { Context } from '../cli/context.js';
import { MemctxError } from '../store/errors.js';

/** Placeholder until the hooks module lands. */
export async function runStagedIndex(_ctx: Context, _root: string): Promise<number> {
  throw new MemctxError('index --staged is not available yet');
}
