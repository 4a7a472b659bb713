import { readdirSync, readFileSync } from 'node:fs';
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
 * The heavy libraries (issue 21: laziness at command entry points and for libraries that cost more than
 * a few milliseconds to load), each site with why it is lazy. A new dynamic import of one of them
 * (or of any package) must be added here with its reason, or be made static.
 */
const HEAVY: Record<string, string> = {
  // the tokenizer (js-tiktoken and the rank tables): only commands that count tokens load it
  'actions/compact.ts → ../tokens/index.js': 'tokenizer',
  'actions/flush.ts → ../tokens/index.js': 'tokenizer',
  'actions/lint.ts → ../tokens/index.js': 'tokenizer, only when a rule counts tokens',
  'actions/pack.ts → ../tokens/count.js': 'tokenizer, skipped on a warm pack cache',
  'actions/pack.ts → ../tokens/background.js': 'tokenizer on a worker thread (a cold pack)',
  'actions/status.ts → ../tokens/index.js': 'tokenizer, only when usage is not recorded',
  // secretlint: only for text with a secret's shape
  'lint/secrets.ts → @secretlint/core': 'secretlint',
  'lint/secrets.ts → @secretlint/secretlint-rule-preset-recommend': 'secretlint',
  'lint/secrets.ts → @secretlint/secretlint-rule-pattern': 'secretlint',
  // the MCP SDK and the JSON Schema converter: only `memctx mcp`, the converter on the first tools/list
  'cli/mcp.ts → @modelcontextprotocol/sdk/server/stdio.js': 'MCP SDK',
  'mcp/server.ts → @modelcontextprotocol/sdk/types.js': 'MCP SDK',
  'mcp/server.ts → @valibot/to-json-schema': 'valibot → JSON Schema converter',
  // other packages kept off the start-up paths (--version, the status line, flush --hook)
  'cli/main.ts → commander': 'command parser, skipped by --version and status --statusline',
  'cli/lint.ts → chalk': 'colours, only for the terminal formatter',
  'cli/ui/progress.ts → ora': 'spinner, only on a TTY',
  // (store/yaml.ts loads `yaml` with createRequire, only for frontmatter simple-yaml.ts cannot read.)
  'store/write.ts → proper-lockfile': 'lock library, only for commands that write',
};

describe('dynamic imports (issue 21)', () => {
  it('every dynamic import of a package or of the tokenizer is a listed heavy library', () => {
    const found = dynamicImports().filter((site) => !/→ (?:node:|\.{1,2}\/)/.test(site) || /^(?!tokens\/).* → \.\.\/tokens\/(?:index|count|background)\.js$/.test(site));
    expect([...new Set(found)].sort()).toEqual(Object.keys(HEAVY).sort());
  });
});
