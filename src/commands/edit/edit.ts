/** `memctx edit`: replace exactly one occurrence of a text in a memory file, stamp `updated`, and re-index. */
import { existsSync, statSync } from 'node:fs';
import { MemctxError } from '../../kernel/errors.js';
import { isoTimestamp } from '../../kernel/store/schema.js';
import { readRawText, countOccurrences, finishEdit, mixedEndings, type RawText } from '../../kernel/store/edit.js';
import { resolveMemoryPath, isIndexPath } from '../../kernel/store/paths.js';
import { ParseFailure, parseMemoryText } from '../../kernel/store/parse.js';
import { MAX_FILE_BYTES } from '../../kernel/store/scan.js';
import { DecodeFailure } from '../../kernel/store/decode.js';
import { writeMemoryFile } from '../../kernel/store/write.js';
import { writeAndReindex } from '../../kernel/memindex/reindex.js';
import { verifiedStamp } from '../../kernel/sources/history.js';
import { duplicateError, findDuplicate } from '../../kernel/lint/duplicates.js';
import type { LintConfig } from '../../kernel/lint/types.js';
import { addedFrontmatterFindings } from '../../kernel/lint/check-new.js';
import { defaultLintConfig } from '../../kernel/lint/config.js';
import { RULES } from '../../kernel/lint/rules/index.js';

export interface EditOptions {
  root: string;
  /** The path as typed, inside the memory directory. */
  path: string;
  old: string;
  new: string;
  /** Keep the edit even when it makes the file a near-duplicate of another memory. */
  force?: boolean;
}

export interface EditDeps {
  now: () => Date;
  /** A problem that did not stop the command (a re-index that failed after the write). */
  warn: (message: string) => void;
  /** The types and rules the frontmatter is checked against (as `add` and the memory tool check it); default the built-in ones. */
  lintConfig?: () => LintConfig;
}

export interface EditResult {
  edited: string;
  /** Why the file's mixed line endings were made one kind. */
  mixedEndings?: string;
}

export async function edit(options: EditOptions, deps: EditDeps): Promise<EditResult> {
  const { root } = options;
  const target = resolveMemoryPath(root, options.path);
  if (isIndexPath(target.rel)) throw new MemctxError('MEMORY.md is generated; edit the text outside its markers by hand, or edit the memory files', { file: target.rel });
  if (options.old === '') throw new MemctxError('--old must not be empty');
  let mixed: RawText | undefined;
  await writeAndReindex(root, async () => {
    if (!existsSync(target.abs)) throw new MemctxError(`no memory file ${target.rel}`, { hint: 'run `memctx ls` to see the files, or `memctx add` to create it' });
    const stat = statSync(target.abs);
    if (!stat.isFile()) throw new MemctxError(`${target.rel} is not a file`, { hint: 'edit one memory file at a time' });
    if (stat.size > MAX_FILE_BYTES) {
      throw new MemctxError(`file is ${stat.size} bytes, over the ${MAX_FILE_BYTES}-byte limit for a memory file; not edited`, { file: target.rel, hint: 'split it into smaller memory files or move it out of the memory directory' });
    }
    try {
      const raw = readRawText(target.abs, root);
      const old = options.old.replace(/\r\n/g, '\n');
      const count = countOccurrences(raw.text, old);
      if (count !== 1) {
        throw new MemctxError(
          count === 0 ? `--old text not found in ${target.rel}` : `--old text occurs ${count} times in ${target.rel}; it must occur exactly once`,
          { file: target.rel, hint: count === 0 ? 'copy the text exactly as it is in the file (`memctx show`)' : 'include more surrounding text so it matches once' },
        );
      }
      const edited = { ...raw, text: raw.text.replace(old, () => options.new.replace(/\r\n/g, '\n')) };
      const text = finishEdit(target.rel, edited, stat, isoTimestamp(deps.now()), verifiedStamp(root));
      await refuseNewFindings(target.rel, raw.text, text, stat, deps);
      if (!options.force) refuseDuplicate(root, target.rel, raw.text, text, stat, deps);
      await writeMemoryFile(target.abs, target.rel, text, { inside: root });
      if (raw.mixed) mixed = raw;
    } catch (err) {
      if (err instanceof ParseFailure) throw new MemctxError(`the edit would leave an invalid memory file: ${err.message}; nothing written`, { file: target.rel, line: err.line, hint: err.hint });
      if (err instanceof DecodeFailure) throw new MemctxError(err.message, { file: target.rel, line: err.line, hint: err.hint });
      throw err;
    }
  }, deps.warn);
  return { edited: target.rel, ...(mixed ? { mixedEndings: mixedEndings(target.rel, mixed) } : {}) };
}

/** Refuse an edit that makes the file a near-duplicate of another memory (one that already was is not refused). */
function refuseDuplicate(root: string, rel: string, before: string, after: string, stat: { mtimeMs: number; size: number }, deps: EditDeps): void {
  const edited = parseMemoryText(rel, after, stat);
  const config = deps.lintConfig?.() ?? defaultLintConfig(RULES);
  const found = findDuplicate(root, rel, edited.body, edited.kind, config);
  if (found && findDuplicate(root, rel, parseMemoryText(rel, before, stat).body, edited.kind, config)?.path !== found.path) throw duplicateError(rel, found, 'edit');
}

/** Refuse an edit that adds a frontmatter problem `memctx lint` would report (one it leaves is not refused), as the memory tool's str_replace does. */
async function refuseNewFindings(rel: string, before: string, after: string, stat: { mtimeMs: number; size: number }, deps: EditDeps): Promise<void> {
  const config = deps.lintConfig?.() ?? defaultLintConfig(RULES);
  const found = await addedFrontmatterFindings(parseMemoryText(rel, after, stat), config, deps.now(), parseMemoryText(rel, before, stat));
  if (found.length === 0) return;
  const f = found[0];
  throw new MemctxError(f.message, { file: rel, line: f.line, hint: `\`memctx lint\` would report this (${f.ruleId}); nothing was written` });
}
