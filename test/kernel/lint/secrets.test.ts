/**
 * Masking ignores secretlint's disable comments (issue 30, item 6): whatever the comments say, a
 * secret never reaches a bundle or an MCP answer; `lint` honours them for its findings only. A secret
 * in a file name is masked wherever memory text is (MCP answers, the bundle).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { tempDir } from '../../helpers/cli.js';
import { runMemctx } from '../../helpers/run.js';
import { callTool, connectInProcess } from '../../helpers/mcp.js';
import { findSecrets, redactSecrets } from '../../../src/kernel/lint/secrets.js';

const TOKEN = ['ghp', '_', 'wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx'].join('');
const NAME_TOKEN = ['ghp', '_', 'Zq9Lm2Xv8Rt4Yw6Nb1Pc3Kd5Fh7Jg0Sa2Ue4'].join('');

const head = (name: string) => `---\nname: ${name}\ndescription: ${name} notes\ntype: project\nupdated: 2026-11-20\n---\n\n`;
const COMMENTED: Record<string, string> = {
  'block.md': `${head('block')}<!-- secretlint-disable -->\ntoken ${TOKEN}\n<!-- secretlint-enable -->\n`,
  'line.md': `${head('line')}token ${TOKEN} <!-- secretlint-disable-line -->\n`,
  'next.md': `${head('next')}<!-- secretlint-disable-next-line -->\ntoken ${TOKEN}\n`,
};

function project(): { cwd: string; root: string } {
  const cwd = tempDir();
  const root = join(cwd, '.memory');
  mkdirSync(root);
  writeFileSync(join(root, 'MEMORY.md'), '<!-- memctx:begin -->\n<!-- memctx:end -->\n');
  for (const [name, text] of Object.entries(COMMENTED)) writeFileSync(join(root, name), text);
  writeFileSync(join(root, `${NAME_TOKEN}.md`), `${head('named')}A file whose name is a token.\n`);
  return { cwd, root };
}

describe('redactSecrets', () => {
  it.each(Object.keys(COMMENTED))('masks the token in %s whatever its comment says', async (name) => {
    const masked = await redactSecrets(COMMENTED[name]);
    expect(masked).not.toContain(TOKEN);
    expect(masked).toContain('token ghp_******** (40 characters)');
  });

  it('lint still honours the comments for its findings (an unclosed disable silences nothing)', async () => {
    const items = Object.entries(COMMENTED).map(([path, text]) => ({ path, text }));
    expect(await findSecrets(items, { honourDisables: true })).toEqual([]);
    expect((await findSecrets(items)).map((hit) => hit.path).sort()).toEqual(['block.md', 'line.md', 'next.md']);
  });
});

describe('the CLI bundle', () => {
  it('masks secrets under disable comments and in file names', async () => {
    const { cwd } = project();
    const result = await runMemctx(['pack', '--budget', '20000', '--json'], { cwd });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain(TOKEN);
    expect(result.stdout).not.toContain(NAME_TOKEN);
    const report = JSON.parse(result.stdout) as { bundle: string; files: { path: string }[] };
    expect(report.bundle).toContain('token ghp_******** (40 characters)');
    expect(report.files.map((f) => f.path)).toContain('ghp_******** (40 characters).md');
  });
});

describe('MCP answers', () => {
  let client: Client;
  let root: string;
  beforeAll(async () => {
    const made = project();
    root = made.root;
    client = await connectInProcess(made.root, made.cwd);
  });
  afterAll(() => client.close());

  it.each(Object.keys(COMMENTED))('`view %s` masks the token', async (name) => {
    const answer = await callTool(client, 'memory', { command: 'view', path: `/memories/${name}` });
    expect(answer.isError).toBe(false);
    expect(answer.text).not.toContain(TOKEN);
    expect(answer.text).toContain('ghp_******** (40 characters)');
  });

  it('`pack` masks them in the bundle and the structured report', async () => {
    const answer = await callTool(client, 'pack', { budget: 20000 });
    expect(answer.isError).toBe(false);
    const all = answer.text + JSON.stringify(answer.structured);
    expect(all).not.toContain(TOKEN);
    expect(all).not.toContain(NAME_TOKEN);
    expect(answer.text).toContain('token ghp_******** (40 characters)');
  });

  it('`lint` masks a file name holding a secret, in the text and the findings', async () => {
    const answer = await callTool(client, 'lint', {});
    const all = answer.text + JSON.stringify(answer.structured);
    expect(all).not.toContain(NAME_TOKEN);
    expect(answer.text).toContain('/memories/ghp_******** (40 characters).md');
  });

  it('`view` of the folder and `search` mask the file name', async () => {
    const view = await callTool(client, 'memory', { command: 'view', path: '/memories' });
    const search = await callTool(client, 'search', { query: 'named notes' });
    expect(view.text + search.text + JSON.stringify(search.structured)).not.toContain(NAME_TOKEN);
    expect(root).toBeTruthy();
  });
});
