// sources/config-schema.ts: the one schema of the configuration file, the JSON Schema shipped from it,
// and flush.askAt.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_THRESHOLDS, resolveLintConfig } from '../../../src/kernel/lint/config.js';
import { RULES } from '../../../src/kernel/lint/rules/index.js';
import { parseAskAt } from '../../../src/kernel/sources/config-schema.js';
import { REPO } from '../../helpers/cli.js';

describe('the shipped JSON Schema', () => {
  it('the shipped JSON schema is the one the configuration schema generates (scripts/config-schema.mjs --check)', () => {
    const check = spawnSync(process.execPath, [join(REPO, 'scripts/config-schema.mjs'), '--check'], { encoding: 'utf8' });
    expect([check.status, check.stderr]).toEqual([0, '']);
    const shipped = JSON.parse(readFileSync(join(REPO, 'schema/memctx.config.schema.json'), 'utf8'));
    expect(Object.keys(shipped.properties)).toEqual(['$schema', 'rules', 'thresholds', 'types', 'flush']);
    expect(Object.keys(shipped.properties.rules.properties)).toEqual(RULES.map((r) => r.id));
  });
});

describe('the config check and the shipped JSON Schema agree (issue 21 item 1)', () => {
  it('each threshold, rule setting and types value is accepted by resolveLintConfig exactly when the schema accepts it', async () => {
    const { Ajv } = await import('ajv');
    const shipped = JSON.parse(readFileSync(join(REPO, 'schema/memctx.config.schema.json'), 'utf8'));
    const validate = new Ajv({ strict: false }).compile(shipped);
    const accepts = (data: Record<string, unknown>) => {
      try {
        resolveLintConfig(data, RULES);
        return true;
      } catch {
        return false;
      }
    };
    const samples: unknown[] = [0, 1, 0.5, 1.5, 10, 11, -1, 2000, '3', null, true, [1]];
    const cases: Record<string, unknown>[] = [
      ...Object.keys(DEFAULT_THRESHOLDS).flatMap((key) => samples.map((value) => ({ thresholds: { [key]: value } }))),
      ...['off', 'warn', 'error', 'warning', 1, null].map((value) => ({ rules: { 'frontmatter/required': value } })),
      ...[['project'], [], [''], [' '], 'project', [1]].map((types) => ({ types })),
      ...[80, [50, 90], [], 0, 101, '80', [0], null].map((askAt) => ({ flush: { askAt } })),
      { flush: [] },
    ];
    const disagree = cases.filter((c) => accepts(c) !== validate(c)).map((c) => JSON.stringify(c));
    expect(cases.length).toBeGreaterThan(100);
    expect(disagree).toEqual([]);
  });
});

describe('parseAskAt', () => {
  it('takes one percentage or a list, in order without repeats', () => {
    expect(parseAskAt(80)).toEqual({ thresholds: [80] });
    expect(parseAskAt([90, 50, 90, 0.5, 100])).toEqual({ thresholds: [0.5, 50, 90, 100] });
  });

  it('refuses anything else, saying what it must be', () => {
    const problem = { problem: 'must be a percentage or a list of them (above 0, at most 100)' };
    for (const value of [0, 101, -5, '80', [], [50, 0], [50, '90'], null, undefined, { at: 80 }]) expect(parseAskAt(value)).toEqual(problem);
  });
});
