import type { Command } from 'commander';
import { EXIT_OK, MemctxError } from '../errors.js';
import { MAX_NAME_LENGTH, MEMORY_KINDS, MEMORY_SEVERITIES, MEMORY_TYPES, isoTimestamp } from '../store/schema.js';
import type { Context } from './context.js';
import { collect, type Runner } from './run.js';
import { readBodyInput } from './input.js';

interface AddFlags {
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
  field?: string[];
  body?: string;
  bodyFile?: string;
}

/** Keys memctx sets itself or that have their own option. */
const OWN_KEYS = ['name', 'description', 'type', 'kind', 'status', 'severity', 'importance', 'tags', 'related', 'pinned', 'expires', 'created', 'updated', 'modified'];

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
    .action(run(runAdd));
}

/** `--field key=value` pairs, values read as YAML scalars or flow lists (`3`, `true`, `[a, b]`). */
async function extraFields(pairs: readonly string[]): Promise<Record<string, unknown>> {
  const { parseFrontmatterYaml } = await import('../store/yaml.js');
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
async function frontmatterOf(flags: AddFlags, now: string): Promise<Record<string, unknown>> {
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
  };
}

/** Refuse what `memctx lint` would report about the new file's frontmatter, naming the option. */
async function checkFields(ctx: Context, rel: string, text: string): Promise<void> {
  const { parseMemoryText } = await import('../store/parse.js');
  const { loadLintSetup } = await import('./lint-setup.js');
  const { frontmatterFindings } = await import('../lint/check-new.js');
  const file = parseMemoryText(rel, text, { mtimeMs: ctx.io.now().getTime(), size: Buffer.byteLength(text) });
  const findings = await frontmatterFindings(file, loadLintSetup(ctx).config, ctx.io.now());
  if (findings.length === 0) return;
  const f = findings[0];
  const key = f.line && f.line > 1 ? /^([\w-]+):/.exec(file.frontmatter.split('\n')[f.line - 2] ?? '')?.[1] : undefined;
  const option = key === undefined ? '' : OWN_KEYS.includes(key) ? `--${key === 'tags' ? 'tag' : key}: ` : `--field ${key}: `;
  throw new MemctxError(`${option}${f.message}`, { hint: `\`memctx lint\` would report this (${f.ruleId}); nothing was written` });
}

async function runAdd(ctx: Context, input: string, flags: AddFlags): Promise<number> {
  const root = ctx.memoryDir();
  const { resolveMemoryPath, isIndexPath, entryExists } = await import('../store/paths.js');
  const target = resolveMemoryPath(root, input);
  if (isIndexPath(target.rel)) throw new MemctxError('MEMORY.md is the generated index, not a memory file', { hint: 'choose another path' });
  const { newFrontmatter, assembleFile } = await import('../store/serialize.js');
  const frontmatter = newFrontmatter(await frontmatterOf(flags, isoTimestamp(ctx.io.now())));
  await checkFields(ctx, target.rel, assembleFile(frontmatter, '', { bom: false, eol: '\n' }));
  const body = await readBodyInput(ctx, flags);
  const text = assembleFile(frontmatter, body === '' ? '' : `\n${body.endsWith('\n') ? body : `${body}\n`}`, { bom: false, eol: '\n' });
  const { writeMemoryFile } = await import('../store/write.js');
  const { writeAndReindex } = await import('../actions/reindex.js');
  await writeAndReindex(root, async () => {
    // Any entry counts, a broken symlink too.
    if (entryExists(target.abs)) {
      throw new MemctxError(`${target.rel} already exists; add never overwrites`, { hint: 'use `memctx edit` to change it, or choose another path' });
    }
    await writeMemoryFile(target.abs, target.rel, text, { inside: root });
  }, (message) => ctx.ui.warn(message));
  if (ctx.ui.json) ctx.ui.printJson({ created: target.rel });
  else ctx.ui.info(`created ${target.rel}`);
  return EXIT_OK;
}
