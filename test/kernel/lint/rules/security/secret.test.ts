import { describe, expect, it } from 'vitest';
import { VALID, doc, lint, lines, mem } from '../../../../helpers/lint.js';

describe('security/secret', () => {
  const githubToken = ['ghp', '_', 'wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx'].join('');

  // Built at run time so no credential-shaped string sits in the repository.
  it('finds a token with its line and column and never shows it in full', async () => {
    const files = [mem('a.md', doc(VALID, `Deploy notes.\nUse token ${githubToken} for the API.\n`)), mem('clean.md', doc(VALID))];
    const result = await lint(['security/secret'], { files });
    expect(lines(result)).toEqual([
      'a.md:8:11 security/secret possible secret: github token ghp_******** (40 characters) [secretlint-rule-github]; remove it, rotate the credential, and keep it in a secret store',
    ]);
    expect(JSON.stringify(result)).not.toContain(githubToken.slice(4));
  });

  it('scans unparseable files and MEMORY.md too, with their own line numbers', async () => {
    const { generateKeyPairSync } = await import('node:crypto');
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024, privateKeyEncoding: { type: 'pkcs1', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
    const files = Array.from({ length: 400 }, (_, i) => mem(`f${i}.md`, doc(VALID, 'plain text, some words\n'.repeat(40 + (i % 7)))));
    files.push(mem('zz.md', doc(VALID, `line\n\n${privateKey}`)));
    const result = await lint(['security/secret'], {
      files,
      problemTexts: { 'broken.md': `---\nname: [oops\n---\nkey ${githubToken}\n` },
      indexText: `# Memory\n\nAPI: ${githubToken}\n`,
    });
    expect(result.findings.map((f) => `${f.file}:${f.line}:${f.column}`)).toEqual(['MEMORY.md:3:6', 'broken.md:4:5', 'zz.md:9:1']);
    const text = JSON.stringify(result);
    expect(text).not.toContain(githubToken.slice(4));
    expect(text).not.toContain(privateKey.split('\n')[1]);
    expect(result.findings[2].message).toMatch(/^possible secret: private key ----\*{8} \(\d+ characters\) \[secretlint-rule-privatekey\]/);
  });
});

describe('security/secret suppression', () => {
  const token = ['ghp', '_', 'wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx'].join('');

  it('a secretlint-disable comment covers only the block it opens and closes or the next line, never the rest of the file (issue 20 item 4)', async () => {
    const files = [
      // Unclosed: silences nothing (it used to silence the rest of a.md).
      mem('a.md', doc(VALID, `fake example: ${token}\n<!-- secretlint-disable -->\n${token}\n`)),
      mem('b.md', doc(VALID, `real: ${token}\n`)),
      mem('c.md', doc(VALID, `<!-- secretlint-disable -->\n${token}\n<!-- secretlint-enable -->\n${token}\n`)),
      mem('d.md', doc(VALID, `<!-- secretlint-disable-next-line -->\n${token}\n${token}\n`)),
    ];
    const result = await lint(['security/secret'], { files });
    expect(result.findings.map((f) => `${f.file}:${f.line}`)).toEqual(['a.md:7', 'a.md:9', 'b.md:7', 'c.md:10', 'd.md:9']);
  });
});
