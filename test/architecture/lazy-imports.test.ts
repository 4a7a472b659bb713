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
 * The command boundary: main.ts loads the one command's module a command line names (a
 * `commands/<name>/cli.ts` that registers a command, or the one that runs a hot command line).
 */
function commandBoundary(site: string): boolean {
  const m = /^main\.ts → \.\/(commands\/[\w-]+\/[\w-]+)\.js$/.exec(site);
  return m !== null && existsSync(join(SRC, `${m[1]}.ts`));
}

/**
 * Every other dynamic import in src/, with why it is lazy (laziness at command entry points and for
 * libraries that cost more than a few milliseconds to load). Anything else is imported statically. A new
 * dynamic import must be added here with its reason, or be made static.
 */
const LAZY: Record<string, string> = {
  // the tokenizer (js-tiktoken's rank tables): only when text is counted
  'commands/compact/compact.ts → ../../kernel/tokens/index.js': 'tokenizer',
  'commands/flush/flush.ts → ./summary-job.js': 'child_process and the transcript compactor, only when flush --hook --summarize-with starts a background summary',
  'commands/flush/flush.ts → ./foreground.js': 'what only a flush outside the hook needs (the agent asked in the foreground, the secret scanner, git history, the --from reader, template name suggestions)',
  'commands/lint/lint.ts → ../../kernel/tokens/index.js': 'tokenizer, only when a rule counts tokens',
  'kernel/bundle/bundle.ts → ../tokens/cache.js': 'tokenizer, skipped on a warm pack cache',
  'kernel/bundle/bundle.ts → ../tokens/count.js': 'tokenizer, skipped on a warm pack cache',
  'kernel/bundle/bundle.ts → ../tokens/background.js': 'tokenizer on a worker thread (a cold pack)',
  'kernel/capacity/measure.ts → ../tokens/index.js': 'tokenizer, only when usage is not recorded',
  'commands/status/cli.ts → ./startup.js': 'the bundle machinery (scan, rank, tokenizer), only for status --startup',
  'commands/lint/cli.ts → ./report.js': "lint's rules and use case (scan, runner, index, formats), loaded once drift's git log has started",
  'kernel/capacity/measure.ts → ./count.js': 'counting the transcript (parser and tokenizer), only when usage is not recorded',
  'kernel/capacity/measure.ts → ../transcript/index.js': 'the transcript parser, only when usage is not recorded',
  'kernel/transcript/reader.ts → ./index.js': "the readers of the formats other than Claude Code's, only for their transcripts (flush --hook)",
  'kernel/capacity/statusline.ts → ./recorded-usage.js': 'the transcript readers, only when Claude Code sends no figure of its own',
  'kernel/capacity/statusline.ts → ../state/windows.js': "the memory directory's finder and the state folder, only when Claude Code sends a window to record",
  'commands/status/statusline.ts → ../../kernel/cli/input.js': "stdin's stream reader, only when stdin cannot be read whole at once",
  'commands/flush/agent-summary.ts → ../../kernel/summary/agent-summary.js': "the rules of a summary the agent writes, only when one is found (a hook's session file written by the agent) or asked for (--agent-summary)",
  'kernel/capacity/statusline.ts → ../tokens/size.js': 'the token-size parser, only for the status line with --window',
  'kernel/state/session-records.ts → ../store/write.js': 'the checked writer and its lock, only when a session record is written (the status line records its window rarely)',
  // secretlint: only for text with a secret's shape
  'kernel/lint/secrets.ts → @secretlint/core': 'secretlint',
  'kernel/lint/secrets.ts → @secretlint/secretlint-rule-preset-recommend': 'secretlint',
  'kernel/lint/secrets.ts → @secretlint/secretlint-rule-pattern': 'secretlint',
  // the MCP SDK, the tools and the JSON Schema converter: `memctx --help` loads commands/mcp/cli.ts without them, and
  // `memctx mcp` loads the SDK once mcp/early.ts has answered initialize and tools/list
  'commands/mcp/cli.ts → ../../mcp/server.js': 'MCP SDK',
  'commands/mcp/cli.ts → ../../mcp/sdk.js': 'MCP SDK',
  'mcp/server.ts → ./tool-list.js': 'the tools, their use cases and schemas: on the first call (initialize and the built tools/list need none)',
  'mcp/server.ts → @valibot/to-json-schema': 'JSON Schema converter, only where the build wrote no tools-list.json (the sources under test)',
  // other packages kept off the start-up paths
  'main.ts → commander': 'command parser, skipped by --version and the hot command lines',
  'main.ts → ./kernel/cli/program.js': 'the full parser, skipped by --version and the hot command lines',
  'main.ts → ./kernel/version.js': 'package.json, read for --version only',
  'main.ts → ./kernel/cli/run.js': "the handlers' runner, for the hot command lines only (program.ts imports it for the rest)",
  'kernel/cli/program.ts → ../state/flush-log.js': "a hook's unparsable command line only",
  'commands/lint/report.ts → chalk': 'colours, only for the plain formatters',
  'kernel/cli/output.ts → chalk': 'colours (its colour detection loads node:tty), only when a stream gets them',
  'kernel/cli/progress.ts → ora': 'spinner, only on a TTY',
  // (store/yaml.ts loads `yaml` with createRequire, only for frontmatter simple-yaml.ts cannot read.)
  // (store/write.ts loads proper-lockfile with createRequire, on the first lock.)
};

describe('dynamic imports', () => {
  const sites = [...new Set(dynamicImports())];

  it('every dynamic import outside the command boundary is listed with its reason', () => {
    expect(sites.filter((site) => !commandBoundary(site)).sort()).toEqual(Object.keys(LAZY).sort());
  });

  it('the command boundary loads every command folder that registers a command', () => {
    const boundary = new Set(sites.filter(commandBoundary).map((site) => site.split('/')[2]));
    const commands = readdirSync(join(SRC, 'commands')).filter((name) => existsSync(join(SRC, 'commands', name, 'cli.ts')));
    expect([...boundary].sort()).toEqual(commands.sort());
  });

  it('a module loaded through kernel/load.ts is required and imported by one specifier', () => {
    const calls = sources(SRC).flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/\b(?:loadModule|own)(?:<[^>]*>)?\('([^']+)',(?: import\.meta\.url,)? \(\) => import\('([^']+)'\)\)/g)]);
    expect(calls.length).toBeGreaterThanOrEqual(7);
    expect(calls.filter(([, required, imported]) => required !== imported)).toEqual([]);
  });

  it('the list stays short', () => {
    expect(Object.keys(LAZY).length).toBeLessThanOrEqual(34);
  });
});
