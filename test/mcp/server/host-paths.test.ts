// Issue 20 items 4 and 9 (MCP parts), issue 21 item 4 and issue 30 item 2, across the tools, through the
// MCP server in-process (issue 30 through the built bin: the root is found where the server starts).
// Each test fails on the code before them (noted per test). What concerns one tool is in
// test/commands/<command>/tool.test.ts.
import { mkdirSync, readdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BIN, REPO, tempDir } from '../../helpers/cli.js';
import { callTool, closeOpened, openInProcess as open } from '../../helpers/mcp.js';
import { SECRETS_24 } from '../../helpers/secrets24.js';

afterEach(closeOpened);

const memory = (client: Client, args: Record<string, unknown>) => callTool(client, 'memory', args);

describe('no host path in an answer (issue 20 item 9)', () => {
  it('status names the transcript by its last part, lint its findings under /memories', async () => {
    const { dir, client } = await open();
    writeFileSync(join(dir, 'session.jsonl'), readFileSync(join(REPO, 'fixtures/transcripts/claude-session.jsonl')));
    const status = await callTool(client, 'status', { transcript: 'session.jsonl' });
    expect(status.isError).toBe(false);
    expect(status.structured?.file).toBe('…/session.jsonl');
    const lint = await callTool(client, 'lint', {});
    for (const answer of [status, lint]) expect(`${answer.text}${JSON.stringify(answer.structured)}`).not.toContain(dir);
  });
});

describe('no secret reaches the model (issue 20 item 4: MCP pack returned 24 of 24)', () => {
  it('pack, view, search and the MEMORY.md resource mask all 24 test secrets', async () => {
    const { root, client } = await open();
    SECRETS_24.forEach((s, i) => writeFileSync(join(root, `s${i}.md`), `---\nname: s${i}\ndescription: credentials for ${s.shape}\ntype: project\n---\n\n${s.line}\n`));
    const pack = await callTool(client, 'pack', { task: 'credentials', budget: 50_000 });
    expect(pack.isError).toBe(false);
    const views = await Promise.all(SECRETS_24.map((_, i) => memory(client, { command: 'view', path: `/memories/s${i}.md` })));
    const search = await callTool(client, 'search', { query: 'credentials', limit: 100 });
    writeFileSync(join(root, 'MEMORY.md'), `# Memory\n\n${SECRETS_24[8].line}\n`);
    const index = await client.readResource({ uri: 'memctx://memory/MEMORY.md' });
    const seen = [JSON.stringify(index.contents), pack.text, JSON.stringify(pack.structured), ...views.map((v) => v.text), search.text, JSON.stringify(search.structured)].join('\n');
    SECRETS_24.forEach((_, i) => expect(pack.text).toContain(`s${i}.md`));
    expect(SECRETS_24.filter((s) => seen.includes(s.value)).map((s) => s.shape)).toEqual([]);
  }, 60_000);
});

describe('every tool: schemas derived from src/schemas/, structured content that validates, truthful annotations (issue 21 item 4)', () => {
  it('lists each tool with its schemas; each answer validates against its outputSchema', async () => {
    const TOOLS = await (await import('../../../src/mcp/server.js')).loadTools();
    const v = await import('valibot');
    const { dir, client } = await open();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['memory', 'search', 'pack', 'status', 'flush', 'lint', 'verify']);
    // Only status writes nothing at all; search, pack and lint write memctx's caches.
    expect(Object.fromEntries(tools.map((t) => [t.name, t.annotations?.readOnlyHint]))).toEqual({ memory: false, search: false, pack: false, status: true, flush: false, lint: false, verify: false });
    expect(tools.find((t) => t.name === 'pack')?.inputSchema).toMatchObject({ type: 'object', additionalProperties: false, properties: { profile: { enum: expect.arrayContaining(['rehydrate']) } } });
    writeFileSync(join(dir, 'session.jsonl'), readFileSync(join(REPO, 'fixtures/transcripts/claude-session.jsonl')));
    const calls: Record<string, Record<string, unknown>> = { search: { query: 'tokens' }, pack: { task: 'tokens' }, status: { transcript: 'session.jsonl' }, flush: { goal: 'check schemas', progress: ['listed the tools'], decisions: ['none'], changed_files: ['none'], blockers: ['none'], next_steps: ['none'], dry_run: true }, lint: {} };
    for (const [name, args] of Object.entries(calls)) {
      const answer = await callTool(client, name, args);
      expect([name, answer.isError]).toEqual([name, false]);
      const output = TOOLS.find((t) => t.name === name)!.output!;
      expect([name, v.safeParse(output, answer.structured).success]).toEqual([name, true]);
    }
  });
});

describe('the memory root stays inside the project (issue 30 item 2: `.memory -> ../..` served and edited $HOME)', () => {
  const DIARY = '---\nname: diary\ndescription: my diary\ntype: user\n---\n\nDear diary.\n';
  const KEY = '-----BEGIN OPENSSH PRIVATE KEY-----\nnot-a-real-key-but-private\n-----END OPENSSH PRIVATE KEY-----\n';
  const clients: Client[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close();
  });

  /** A clone at <home>/projects/evil (a git repository) whose `.memory` links to `target`; HOME holds a diary, a tax file and a key. */
  function clone(target: (home: string) => string) {
    const home = join(realpathSync(tempDir('memctx-mcp-root-')), 'home');
    const top = join(home, 'projects', 'evil');
    mkdirSync(join(top, '.git'), { recursive: true });
    mkdirSync(join(home, 'Documents', 'taxes'), { recursive: true });
    writeFileSync(join(home, 'Documents', 'taxes', '2025.txt'), 'income: 123456\n');
    writeFileSync(join(home, 'Documents', 'diary.md'), DIARY);
    mkdirSync(join(home, '.ssh'));
    writeFileSync(join(home, '.ssh', 'id_ed25519'), KEY);
    if (target(home)) symlinkSync(target(home), join(top, '.memory'));
    return { home, top };
  }

  /** The built bin's `mcp` started in `cwd`, as an agent starts it, with `args` before `mcp`. */
  async function serve(cwd: string, home: string, args: string[] = []): Promise<Client> {
    const client = new Client({ name: 'memctx-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, ...args, 'mcp'], cwd, env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', HOME: home, XDG_CACHE_HOME: process.env.XDG_CACHE_HOME ?? join(home, '..', 'cache') }, stderr: 'pipe' }));
    clients.push(client);
    return client;
  }

  const snapshotHome = (home: string) => [readdirSync(home).sort(), readdirSync(join(home, 'Documents')).sort(), readFileSync(join(home, 'Documents', 'diary.md'), 'utf8'), readdirSync(join(home, '.ssh'))];

  it('`.memory -> ../..`: view, str_replace, create, pack and search answer the refusal; $HOME is neither read nor written', async () => {
    const { home, top } = clone(() => '../..');
    const before = snapshotHome(home);
    const client = await serve(top, home);
    const refusal = 'memory directory …/.memory leaves the project …/evil: it is a symbolic link to ../.. (real path …/home)';
    const calls: Array<[string, Record<string, unknown>]> = [
      ['memory', { command: 'view', path: '/memories/Documents/taxes/2025.txt' }],
      ['memory', { command: 'str_replace', path: '/memories/Documents/diary.md', old_str: 'Dear', new_str: 'Pwned' }],
      ['memory', { command: 'create', path: '/memories/pwned.md', file_text: 'x' }],
      ['pack', { task: 'diary' }],
      ['search', { query: 'diary' }],
    ];
    for (const [name, args] of calls) {
      const answer = await callTool(client, name, args);
      expect([name, answer.isError, answer.text.startsWith(refusal)]).toEqual([name, true, true]);
      expect(answer.text).not.toContain('123456');
    }
    const index = await client.readResource({ uri: 'memctx://memory/MEMORY.md' });
    expect(index.contents).toEqual([{ uri: 'memctx://memory/MEMORY.md', mimeType: 'text/markdown', text: '' }]);
    expect(snapshotHome(home)).toEqual(before);
  });

  it('`.memory -> ~/.ssh` does not serve the key', async () => {
    const { home, top } = clone((h) => join(h, '.ssh'));
    const client = await serve(top, home);
    const answer = await memory(client, { command: 'view', path: '/memories/id_ed25519' });
    expect(answer.isError).toBe(true);
    expect(answer.text).toContain('leaves the project …/evil: it is a symbolic link to');
    expect(answer.text).not.toContain('PRIVATE KEY');
  });

  it('--dir naming a folder outside the project is refused too (a repository can commit the server\'s arguments)', async () => {
    const { home, top } = clone(() => '');
    const client = await serve(top, home, ['--dir', join(home, 'Documents')]);
    const answer = await memory(client, { command: 'view', path: '/memories/diary.md' });
    expect(answer).toEqual({ isError: true, text: "memory directory …/Documents leaves the project …/evil (hooks and the MCP server, which a repository's committed settings start, use only a memory directory inside the project: move the memory directory into the project)", structured: undefined });
  });

  it('allowed: `.memory` linked to a folder inside the repository', async () => {
    const { home, top } = clone(() => 'docs/memory');
    mkdirSync(join(top, 'docs', 'memory'), { recursive: true });
    writeFileSync(join(top, 'docs', 'memory', 'project_a.md'), '---\nname: A\ndescription: inside\ntype: project\n---\n\nInside the repository.\n');
    const client = await serve(top, home);
    const answer = await memory(client, { command: 'view', path: '/memories/project_a.md' });
    expect(answer.isError).toBe(false);
    expect(answer.text).toContain('Inside the repository.');
  });
});
