#!/usr/bin/env node
// Writes docs/rules/<id>.md, one page per lint rule, from the rules themselves (dist/, so build first);
// `--check` writes nothing and exits 1 when a page is missing or differs (test/lint/rule-docs.test.ts).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { RULES } = await import(join(root, 'dist/src/kernel/lint/rules/index.js'));
const { ruleDocPath } = await import(join(root, 'dist/src/commands/lint/formatters/sarif.js'));

function rulePage(rule) {
  const up = '../'.repeat(ruleDocPath(rule.id).split('/').length - 1);
  return [
    `# \`${rule.id}\``,
    '',
    rule.description,
    '',
    `- Severity by default: ${rule.defaultSeverity}`,
    `- Fixable: ${rule.fixable ? 'yes, `memctx lint --fix` fixes it' : 'no'}`,
    '',
    '## Turning it off',
    '',
    `For one file, put \`<!-- memctx-disable ${rule.id} -->\` in it. Everywhere, set \`"rules": { "${rule.id}": "off" }\``,
    `(or \`"warning"\`, \`"error"\`) in \`memctx.config.json\`.`,
    '',
    `All the rules: [the lint page](${up.slice(3)}commands/lint.md#rule-${rule.id.replace(/\//g, '-')}).`,
    '',
  ].join('\n');
}

const check = process.argv.includes('--check');
let stale = 0;
for (const rule of RULES) {
  const path = join(root, ruleDocPath(rule.id));
  const text = rulePage(rule);
  if (check) {
    if (!existsSync(path) || readFileSync(path, 'utf8') !== text) {
      console.log(`${ruleDocPath(rule.id)} is missing or out of date`);
      stale++;
    }
  } else {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
}
if (check && stale) {
  console.log('run `npm run build && node scripts/rule-docs.mjs` to rewrite them');
  process.exitCode = 1;
}
