#!/usr/bin/env node
// Writes schema/memctx.config.schema.json, the JSON Schema editors check memctx.config.json with, from the
// one configuration schema (src/kernel/sources/config-schema.ts, through dist/, so build first): run it after changing
// that schema or a rule. `--check` writes nothing and exits 1 when the committed file differs
// (test/lint/ci.test.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toJsonSchema } from '@valibot/to-json-schema';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { configSchema } = await import(join(root, 'dist/src/kernel/sources/config-schema.js'));
const { RULES } = await import(join(root, 'dist/src/kernel/lint/rules/index.js'));
const { DEFAULT_THRESHOLDS } = await import(join(root, 'dist/src/kernel/lint/config.js'));

const file = join(root, 'schema/memctx.config.schema.json');
const { $schema, title, ...rest } = toJsonSchema(configSchema(RULES, DEFAULT_THRESHOLDS));
const text = `${JSON.stringify({ $schema, title, ...rest }, null, 2)}\n`;
if (process.argv.includes('--check')) {
  if (readFileSync(file, 'utf8') !== text) {
    process.stderr.write('schema/memctx.config.schema.json differs from src/kernel/sources/config-schema.ts: run `node scripts/config-schema.mjs` and commit it\n');
    process.exit(1);
  }
} else {
  writeFileSync(file, text);
}
