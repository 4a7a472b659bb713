/** `memctx verify`: record that memories still hold at HEAD (`verified: <commit>`), after someone checked them. */
import { statSync } from 'node:fs';
import { MemctxError } from '../../kernel/errors.js';
import { headCommit } from '../../kernel/sources/history.js';
import { readRawText } from '../../kernel/store/edit.js';
import { parseMemoryText, ParseFailure } from '../../kernel/store/parse.js';
import { DecodeFailure } from '../../kernel/store/decode.js';
import { isIndexPath, resolveMemoryPath } from '../../kernel/store/paths.js';
import { serializeMemoryFile } from '../../kernel/store/serialize.js';
import { withMemoryLock, writeMemoryFile } from '../../kernel/store/write.js';

export interface VerifyResult {
  /** The commit recorded. */
  commit: string;
  /** Files stamped, relative to the memory directory. */
  verified: string[];
  /** Files not stamped, with why (one bad file never stops the others). */
  problems: { file: string; message: string; hint?: string }[];
}

async function stampOne(root: string, path: string, commit: string): Promise<string> {
  const target = resolveMemoryPath(root, path);
  if (isIndexPath(target.rel)) throw new MemctxError('MEMORY.md is the generated index, not a memory', { file: target.rel, hint: 'verify memory files' });
  const stat = statSync(target.abs, { throwIfNoEntry: false });
  if (!stat?.isFile()) throw new MemctxError(`no memory file ${target.rel}`, { file: target.rel, hint: 'run `memctx ls` to see the files' });
  const raw = readRawText(target.abs, root);
  const parsed = parseMemoryText(target.rel, raw.text, stat);
  if (!parsed.hasFrontmatter) throw new MemctxError(`${target.rel} has no frontmatter to record the check in`, { file: target.rel, hint: 'add one (`memctx lint` says what it needs), then verify' });
  const text = serializeMemoryFile({ ...parsed, format: { ...parsed.format, ...raw.format } }, { verified: commit });
  await writeMemoryFile(target.abs, target.rel, text, { inside: root });
  return target.rel;
}

/** Stamp each file with HEAD's commit; `updated` is left alone (checking is not changing). */
export async function verify(options: { root: string; paths: string[] }, deps: { env: Record<string, string | undefined> }): Promise<VerifyResult> {
  const { root } = options;
  const commit = headCommit(root, deps.env);
  if (!commit) throw new MemctxError('the memory directory is not in a git repository with a commit, so there is no commit to record', { file: root, hint: 'commit the repository first (drift is measured from git history)' });
  const result: VerifyResult = { commit, verified: [], problems: [] };
  await withMemoryLock(root, async () => {
    for (const path of options.paths) {
      try {
        result.verified.push(await stampOne(root, path, commit));
      } catch (err) {
        if (err instanceof ParseFailure || err instanceof DecodeFailure) result.problems.push({ file: path, message: `line ${err.line}: ${err.message}`, ...(err.hint ? { hint: err.hint } : {}) });
        else if (err instanceof MemctxError) result.problems.push({ file: err.file ?? path, message: err.message, ...(err.hint ? { hint: err.hint } : {}) });
        else throw err;
      }
    }
  });
  return result;
}
