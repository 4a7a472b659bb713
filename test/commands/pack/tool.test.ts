import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { callTool, closeOpened, openInProcess as open, inProcessServer } from '../../helpers/mcp.js';
import { SECRETS_24 } from '../../helpers/secrets24.js';

afterEach(closeOpened);

describe('memctx mcp', () => {
  const server = inProcessServer();

  it('pack answers with structured content', async () => {
    const { client } = server;
    const pack = await callTool(client, 'pack', { task: 'login tokens', budget: 4000 });
    expect(pack.text).toContain('Tokens are JWTs.');
    expect(pack.structured).toMatchObject({ budget: 4000, task: 'login tokens' });
  });
});

describe('a secret in a name or description is masked in the bundle too', () => {
  it('the index and description lines of MCP pack carry no secret at any budget', async () => {
    const { root, client } = await open();
    const secret = SECRETS_24[2].value;
    writeFileSync(join(root, 'a.md'), `---\nname: a\ndescription: key ${secret}\ntype: project\n---\n\nbody\n`);
    for (let i = 0; i < 30; i++) writeFileSync(join(root, `f${i}.md`), `---\nname: f${i}\ndescription: filler ${i}\ntype: project\n---\n\n${'text '.repeat(300)}\n`);
    for (const budget of [400, 2_000, 50_000]) {
      const pack = await callTool(client, 'pack', { budget });
      expect([budget, pack.text.includes(secret) || JSON.stringify(pack.structured).includes(secret)]).toEqual([budget, false]);
      expect(pack.structured?.tokens as number).toBeLessThanOrEqual(budget);
    }
  });
});
