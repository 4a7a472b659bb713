import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.js';

const SRC = join(REPO, 'src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

/** Every runtime `import('…')` in src/ as "file → specifier" (`typeof import(…)` and `import(…).Type` are types, left out). */
function dynamicImports(): string[] {
  return sources(SRC).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/(?<!typeof )\bimport\('([^']+)'\)(?!\.[A-Z])/g)].map((m) => `${relative(SRC, file)} → ${m[1]}`),
  );
}

/**
 * The command boundary: cli/main.ts loads the one command module a command line names (a module of
 * src/cli/ that registers a command) or one hot path's entry (a module of src/cli/fast/ with `run`).
 */
function commandBoundary(site: string): boolean {
  const m = /^cli\/main\.ts → \.\/((?:fast\/)?[\w-]+)\.js$/.exec(site);
  if (!m) return false;
  const file = join(SRC, 'cli', `${m[1]}.ts`);
  if (!existsSync(file)) return false;
  const text = readFileSync(file, 'utf8');
  return m[1].startsWith('fast/') ? /export const run\b/.test(text) : /export function register\(/.test(text);
}

/**
 * Every other dynamic import in src/, with why it is lazy (issue 21: laziness at command entry points and
 * for libraries that cost more than a few milliseconds to load). Anything else is imported statically:
 * the CLI is bundled with code splitting, so a static import inside one command's modules costs the
 * other commands nothing. A new dynamic import must be added here with its reason, or be made static.
 */
const LAZY: Record<string, string> = {
  // the tokenizer (js-tiktoken's rank tables): only when text is counted
  'actions/compact.ts → ../tokens/index.js': 'tokenizer',
  'actions/flush.ts → ../tokens/small.js': 'tokenizer (a summary is a short text)',
  'actions/lint.ts → ../tokens/index.js': 'tokenizer, only when a rule counts tokens',
  'actions/pack.ts → ../tokens/cache.js': 'tokenizer, skipped on a warm pack cache',
  'actions/pack.ts → ../tokens/count.js': 'tokenizer, skipped on a warm pack cache',
  'actions/pack.ts → ../tokens/background.js': 'tokenizer on a worker thread (a cold pack)',
  'actions/status.ts → ../tokens/index.js': 'tokenizer, only when usage is not recorded',
  'actions/status.ts → ../capacity/count.js': 'counting the transcript (parser and tokenizer), only when usage is not recorded',
  'actions/status.ts → ../transcript/index.js': 'the transcript parser, only when usage is not recorded',
  'cache/session-records.ts → ../store/write.js': 'the checked writer and its lock, only when a session record is written (the status line records its window rarely)',
  // secretlint: only for text with a secret's shape
  'lint/secrets.ts → @secretlint/core': 'secretlint',
  'lint/secrets.ts → @secretlint/secretlint-rule-preset-recommend': 'secretlint',
  'lint/secrets.ts → @secretlint/secretlint-rule-pattern': 'secretlint',
  // the MCP SDK, the tools and the JSON Schema converter: `memctx --help` loads cli/mcp.ts without them
  'cli/mcp.ts → ../mcp/server.js': 'MCP SDK',
  'cli/mcp.ts → @modelcontextprotocol/sdk/server/stdio.js': 'MCP SDK',
  'mcp/server.ts → ./tool-list.js': 'the tools, their actions and schemas: on the first call (initialize and the bundled tools/list need none)',
  'mcp/server.ts → @valibot/to-json-schema': 'JSON Schema converter, outside the bundle only (the bundle has tools/list built in)',
  // other packages kept off the start-up paths
  'cli/main.ts → commander': 'command parser, skipped by --version and the hot paths',
  'cli/main.ts → ./ui/output.js': 'chalk, not for --version',
  'cli/main.ts → ./run.js': 'chalk (through ui/output.ts), not for --version',
  'cli/main.ts → ./fast/start.js': 'chalk (through ui/output.ts), not for --version',
  'cli/program.ts → ../actions/flush.js': "a flush hook's unparsable command line only: the flush action's modules",
  'cli/lint.ts → chalk': 'colours, only for the plain formatters',
  'cli/ui/progress.ts → ora': 'spinner, only on a TTY',
  // (store/yaml.ts loads `yaml` with createRequire, only for frontmatter simple-yaml.ts cannot read.)
  'store/write.ts → proper-lockfile': 'lock library, only for commands that write',
};

describe('dynamic imports (issue 21)', () => {
  const sites = [...new Set(dynamicImports())];

  it('every dynamic import outside the command boundary is listed with its reason', () => {
    expect(sites.filter((site) => !commandBoundary(site)).sort()).toEqual(Object.keys(LAZY).sort());
  });

  it('the command boundary loads each command module and hot-path entry, once each', () => {
    const boundary = sites.filter(commandBoundary);
    const commands = readdirSync(join(SRC, 'cli')).filter((f) => f.endsWith('.ts') && /export function register\(/.test(readFileSync(join(SRC, 'cli', f), 'utf8')));
    const entries = readdirSync(join(SRC, 'cli/fast')).filter((f) => /export const run\b/.test(readFileSync(join(SRC, 'cli/fast', f), 'utf8')));
    expect(boundary.length).toBe(commands.length + entries.length);
    expect(boundary.length).toBe(dynamicImports().filter(commandBoundary).length);
  });

  it('the list stays short', () => {
    expect(Object.keys(LAZY).length).toBeLessThanOrEqual(25);
  });
});
