import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findSecrets, maybeSecret, secretWarnings } from '../../../../src/kernel/lint/secrets.js';

const DIR = join(import.meta.dirname, '../../../../fixtures/secretlint');
const inputs = readdirSync(DIR)
  .filter((f) => f !== 'SOURCES.md')
  .map((f) => ({ path: f, text: readFileSync(join(DIR, f), 'utf8') }));

describe('the secret pre-check (secretlint is loaded only when it passes)', () => {
  it('passes every secretlint test input that secretlint reports on', async () => {
    expect(inputs.length).toBe(50);
    const reported = new Set((await findSecrets(inputs)).map((hit) => hit.path));
    expect(reported.size).toBe(inputs.length);
    expect(inputs.filter((input) => !maybeSecret(input.text)).map((input) => input.path)).toEqual([]);
  });

  it('lets ordinary prose through without loading secretlint', async () => {
    const prose = 'We keep the client secret in the vault; the account owner rotates it. Next: the auth token migration.';
    expect(maybeSecret(prose)).toBe(false);
    expect(await secretWarnings([{ path: 'notes.md', text: prose }])).toEqual([]);
  });

  it('still warns on an AWS account id, a Slack app token and a Vercel token', async () => {
    for (const name of ['aws__ng.AWS_Account_ID.txt', 'slack__ng.xapp-token.txt', 'vercel__ng.secret.txt']) {
      const input = inputs.find((i) => i.path === name)!;
      expect((await secretWarnings([input])).length, name).toBeGreaterThan(0);
    }
  });

  it('passes the Stripe shapes our own pattern reports, test keys included', async () => {
    const key = ['sk', '_test_', '4eC39HqLyjWDarjtT1zdp7dc'].join('');
    expect(maybeSecret(`billing uses ${key}`)).toBe(true);
    expect((await secretWarnings([{ path: 'billing.md', text: `billing uses ${key}\n` }])).length).toBe(1);
  });
});
