/** `memctx add`: check the new file's frontmatter as lint would, then create it (never overwriting) and re-index. */
import { MemctxError } from '../../kernel/errors.js';
import { isoTimestamp } from '../../kernel/store/schema.js';
import type { LintConfig } from '../../kernel/lint/types.js';
import { parseFrontmatterYaml } from '../../kernel/store/yaml.js';
import { parseMemoryText } from '../../kernel/store/parse.js';
import { frontmatterFindings } from '../../kernel/lint/check-new.js';
import { closestMatch } from '../../kernel/text/suggest.js';
import { resolveMemoryPath, isIndexPath, entryExists } from '../../kernel/store/paths.js';
import { newFrontmatter, assembleFile } from '../../kernel/store/serialize.js';
import { writeMemoryFile } from '../../kernel/store/write.js';
import { writeAndReindex } from '../../kernel/memindex/reindex.js';
import { verifiedStamp } from '../../kernel/sources/history.js';
import { duplicateError, findDuplicate } from '../../kernel/lint/duplicates.js';

/** The frontmatter as typed on the command line. */
export interface AddFields {
  name: string;
  description: string;
  type: string;
  kind?: string;
  status?: string;
  severity?: string;
  importance?: string;
  tag?: string[];
  related?: string[];
  pinned?: boolean;
  expires?: string;
  created?: string;
  /** Other fields as key=value, the value read as YAML. */
  field?: string[];
}

export interface AddOptions {
  root: string;
  /** The path as typed, inside the memory directory. */
  path: string;
  fields: AddFields;
  /** Keep a near-duplicate of another memory (refused otherwise). */
  force?: boolean;
}

export interface AddDeps {
  now: () => Date;
  /** lint's configuration, asked for once the fields parse. */
  lintConfig: () => LintConfig;
  /** The body text, read once the frontmatter has passed its checks. */
  readBody: () => Promise<string>;
  /** A problem that did not stop the command (a re-index that failed after the write). */
  warn: (message: string) => void;
}

export interface AddResult {
  created: string;
}

/** Keys memctx sets itself or that have their own option. */
const OWN_KEYS = ['name', 'description', 'type', 'kind', 'status', 'severity', 'importance', 'tags', 'related', 'pinned', 'expires', 'created', 'updated', 'modified'];

/** `--field key=value` pairs, values read as YAML scalars or flow lists (`3`, `true`, `[a, b]`). */
async function extraFields(pairs: readonly string[]): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    const key = at === -1 ? '' : pair.slice(0, at).trim();
    if (!/^[A-Za-z_][\w-]*$/.test(key)) throw new MemctxError(`--field must be KEY=VALUE with a plain key, got "${pair}"`, { hint: 'for example --field supersedes=project_old.md' });
    if (OWN_KEYS.includes(key)) throw new MemctxError(`--field ${key}=… sets a field add manages`, { hint: key === 'updated' || key === 'modified' ? 'memctx sets it on every write' : `use --${key === 'tags' ? 'tag' : key} instead` });
    const value = pair.slice(at + 1);
    if (/[\r\n]/.test(value)) throw new MemctxError(`--field ${key} must be one line`);
    let data: Record<string, unknown>;
    try {
      data = parseFrontmatterYaml(`value: ${value}`);
    } catch {
      data = { value };
    }
    out[key] = Object.keys(data).length === 1 && 'value' in data ? (data.value ?? value) : value;
  }
  return out;
}

/** The file's frontmatter from the flags; one-line checks here, the rest is lint's (see checkFields). */
async function frontmatterOf(flags: AddFields, now: string, stamp: Record<string, string>): Promise<Record<string, unknown>> {
  if (/[\r\n]/.test(flags.name)) throw new MemctxError('--name must be one line');
  if (/[\r\n]/.test(flags.description) || flags.description.trim() === '') throw new MemctxError('--description must be one non-empty line');
  const importance = flags.importance === undefined ? undefined : /^\s*-?\d+(\.\d+)?\s*$/.test(flags.importance) ? Number(flags.importance) : flags.importance;
  return {
    name: flags.name.trim(),
    description: flags.description.trim(),
    type: flags.type,
    kind: flags.kind,
    status: flags.status,
    severity: flags.severity,
    importance,
    tags: flags.tag?.length ? flags.tag : undefined,
    related: flags.related?.length ? flags.related : undefined,
    pinned: flags.pinned ? true : undefined,
    expires: flags.expires,
    ...(await extraFields(flags.field ?? [])),
    created: flags.created ?? now,
    updated: now,
    ...stamp,
  };
}

/** Refuse what `memctx lint` would report about the new file's frontmatter, naming the option. */
async function checkFields(deps: AddDeps, rel: string, text: string): Promise<void> {
  const file = parseMemoryText(rel, text, { mtimeMs: deps.now().getTime(), size: Buffer.byteLength(text) });
  const findings = await frontmatterFindings(file, deps.lintConfig(), deps.now());
  if (findings.length === 0) return;
  const f = findings[0];
  const key = f.line && f.line > 1 ? /^([\w-]+):/.exec(file.frontmatter.split('\n')[f.line - 2] ?? '')?.[1] : undefined;
  const option = key === undefined ? '' : OWN_KEYS.includes(key) ? `--${key === 'tags' ? 'tag' : key}: ` : `--field ${key}: `;
  const lint = `\`memctx lint\` would report this (${f.ruleId}); nothing was written`;
  const guess = key === 'type' && file.type !== undefined ? closestMatch(file.type, deps.lintConfig().types) : undefined;
  throw new MemctxError(`${option}${f.message}`, { hint: guess === undefined ? lint : `did you mean --type ${guess}? (${lint})` });
}

export async function add(options: AddOptions, deps: AddDeps): Promise<AddResult> {
  const { root } = options;
  const target = resolveMemoryPath(root, options.path);
  if (isIndexPath(target.rel)) throw new MemctxError('MEMORY.md is the generated index, not a memory file', { hint: 'choose another path' });
  const frontmatter = newFrontmatter(await frontmatterOf(options.fields, isoTimestamp(deps.now()), verifiedStamp(root)));
  await checkFields(deps, target.rel, assembleFile(frontmatter, '', { bom: false, eol: '\n' }));
  const body = await deps.readBody();
  const duplicate = options.force ? undefined : findDuplicate(root, target.rel, body, options.fields.kind, deps.lintConfig());
  if (duplicate) throw duplicateError(target.rel, duplicate, 'add');
  const text = assembleFile(frontmatter, body === '' ? '' : `\n${body.endsWith('\n') ? body : `${body}\n`}`, { bom: false, eol: '\n' });
  await writeAndReindex(root, async () => {
    // Any entry counts, a broken symlink too.
    if (entryExists(target.abs)) {
      throw new MemctxError(`${target.rel} already exists; add never overwrites`, { hint: 'use `memctx edit` to change it, or choose another path' });
    }
    await writeMemoryFile(target.abs, target.rel, text, { inside: root });
  }, deps.warn);
  return { created: target.rel };
}
