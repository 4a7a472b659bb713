import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BIN, REPO, tempDir } from '../helpers/cli.js';

interface ToolText {
  text: string;
  isError: boolean;
  structured?: Record<string, unknown>;
}

async function connect(dir: string): Promise<Client> {
  const env = { PATH: process.env.PATH ?? '', NO_COLOR: '1', HOME: dir };
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, '--dir', join(dir, '.memory'), 'mcp'], cwd: dir, env, stderr: 'pipe' });
  const client = new Client({ name: 'memctx-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<ToolText> {
  const result = (await client.callTool({ name, arguments: args })) as { content: Array<{ type: string; text: string }>; isError?: boolean; structuredContent?: Record<string, unknown> };
  return { text: result.content.map((c) => c.text).join('\n'), isError: result.isError === true, structured: result.structuredContent };
}

function setup(): string {
  const dir = tempDir('memctx-mcp-');
  const memory = join(dir, '.memory');
  mkdirSync(memory);
  writeFileSync(join(memory, 'project_auth.md'), '---\nname: auth\ndescription: How login tokens work\ntype: project\nowner: team-a\nupdated: 2026-01-01T00:00:00Z\n---\n\nTokens are JWTs.\nThey expire after 1h.\nRefresh uses a cookie.\n');
  writeFileSync(join(memory, 'twice.md'), '---\nname: twice\ndescription: a word twice\ntype: project\n---\n\nsame\nsame\n');
  return dir;
}

describe('memctx mcp over stdio', () => {
  let dir: string;
  let memory: string;
  let client: Client;
  beforeAll(async () => {
    dir = setup();
    memory = join(dir, '.memory');
    client = await connect(dir);
  });
  afterAll(async () => {
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists the six tools and the MEMORY.md resource', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['flush', 'lint', 'memory', 'pack', 'search', 'status']);
    const memoryTool = tools.find((t) => t.name === 'memory')!;
    expect(Object.keys(memoryTool.inputSchema.properties ?? {}).sort()).toEqual(['command', 'file_text', 'insert_line', 'insert_text', 'new_path', 'new_str', 'old_path', 'old_str', 'path', 'view_range']);
    expect((memoryTool.inputSchema.properties as Record<string, { enum?: string[] }>).command.enum).toEqual(['view', 'create', 'str_replace', 'insert', 'delete', 'rename']);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(['memctx://memory/MEMORY.md']);
  });

  it('views a directory with descriptions and a file with line numbers and a range', async () => {
    const listing = await call(client, 'memory', { command: 'view', path: '/memories' });
    expect(listing.isError).toBe(false);
    expect(listing.text).toMatch(/^Here're the files and directories up to 2 levels deep in \/memories, excluding hidden items and node_modules:\n/);
    expect(listing.text).toMatch(/\t\/memories\/project_auth\.md\tHow login tokens work$/m);
    expect(listing.text).not.toContain('.memctx');
    const file = await call(client, 'memory', { command: 'view', path: '/memories/project_auth.md', view_range: [9, 10] });
    expect(file.text).toBe("Here's the content of /memories/project_auth.md with line numbers:\n     9\tTokens are JWTs.\n    10\tThey expire after 1h.");
    const bad = await call(client, 'memory', { command: 'view', path: '/memories/project_auth.md', view_range: [40, -1] });
    expect(bad).toMatchObject({ isError: true });
    expect(bad.text).toContain('Invalid `view_range` parameter: [40, -1]');
  });

  it('creates a file without frontmatter: a valid one is added and MEMORY.md lists it', async () => {
    const created = await call(client, 'memory', { command: 'create', path: '/memories/notes/deploy.md', file_text: '# Deploys go through staging\n\nNever push to prod on Fridays.\n' });
    expect(created).toEqual({ text: 'File created successfully at: /memories/notes/deploy.md', isError: false, structured: undefined });
    const text = readFileSync(join(memory, 'notes/deploy.md'), 'utf8');
    expect(text).toMatch(/^---\nname: deploy\ndescription: Deploys go through staging\ntype: project\ncreated: \d{4}-\d\d-\d\dT[\d:]+Z\nupdated: \d{4}-\d\d-\d\dT[\d:]+Z\n---\n\n# Deploys go through staging\n/);
    expect(readFileSync(join(memory, 'MEMORY.md'), 'utf8')).toContain('(notes/deploy.md) — Deploys go through staging');
    const again = await call(client, 'memory', { command: 'create', path: '/memories/notes/deploy.md', file_text: 'other' });
    expect(again.isError).toBe(true);
    expect(again.text).toBe('File /memories/notes/deploy.md already exists; create never overwrites. Use str_replace or insert to change it, or delete it first.');
    expect(readFileSync(join(memory, 'notes/deploy.md'), 'utf8')).toBe(text);
  });

  it('str_replace keeps unknown frontmatter, sets updated, and refuses zero or several matches', async () => {
    const done = await call(client, 'memory', { command: 'str_replace', path: '/memories/project_auth.md', old_str: 'after 1h', new_str: 'after 2h' });
    expect(done.isError).toBe(false);
    expect(done.text).toMatch(/^The memory file has been edited\. Here is the snippet showing the change \(with line numbers\):\n/);
    expect(done.text).toContain('    10\tThey expire after 2h.');
    const text = readFileSync(join(memory, 'project_auth.md'), 'utf8');
    expect(text).toContain('owner: team-a\n');
    expect(text).not.toContain('2026-01-01T00:00:00Z');
    const none = await call(client, 'memory', { command: 'str_replace', path: '/memories/project_auth.md', old_str: 'nowhere', new_str: 'x' });
    expect(none).toMatchObject({ isError: true, text: 'No replacement was performed, old_str `nowhere` did not appear verbatim in /memories/project_auth.md.' });
    const many = await call(client, 'memory', { command: 'str_replace', path: '/memories/twice.md', old_str: 'same', new_str: 'x' });
    expect(many).toMatchObject({ isError: true, text: 'No replacement was performed. Multiple occurrences of old_str `same` in lines: 7, 8. Please ensure it is unique' });
    expect(readFileSync(join(memory, 'twice.md'), 'utf8')).toBe('---\nname: twice\ndescription: a word twice\ntype: project\n---\n\nsame\nsame\n');
  });

  it('insert checks insert_line against the file and refuses an edit that breaks the frontmatter', async () => {
    const before = readFileSync(join(memory, 'twice.md'), 'utf8');
    const out = await call(client, 'memory', { command: 'insert', path: '/memories/twice.md', insert_line: 99, insert_text: 'x' });
    expect(out).toMatchObject({ isError: true, text: 'Invalid `insert_line` parameter: 99. It should be within the range of lines of the file: [0, 9]' });
    const broken = await call(client, 'memory', { command: 'insert', path: '/memories/twice.md', insert_line: 2, insert_text: 'description: [unclosed' });
    expect(broken.isError).toBe(true);
    expect(broken.text).toMatch(/^Nothing written: the edit would leave \/memories\/twice\.md an invalid memory file/);
    expect(readFileSync(join(memory, 'twice.md'), 'utf8')).toBe(before);
    const ok = await call(client, 'memory', { command: 'insert', path: '/memories/twice.md', insert_line: 9, insert_text: 'third line\n' });
    expect(ok).toMatchObject({ isError: false, text: 'The file /memories/twice.md has been edited.' });
    expect(readFileSync(join(memory, 'twice.md'), 'utf8')).toMatch(/\nsame\nsame\n\nthird line$/);
  });

  it('renames and deletes through the store, never over another file, never MEMORY.md', async () => {
    writeFileSync(join(memory, 'old.md'), '---\nname: old\ndescription: to move\ntype: project\n---\n\nbody\n');
    expect(await call(client, 'memory', { command: 'rename', old_path: '/memories/old.md', new_path: '/memories/twice.md' })).toMatchObject({ isError: true, text: 'The destination /memories/twice.md already exists' });
    expect(await call(client, 'memory', { command: 'rename', old_path: '/memories/old.md', new_path: '/memories/archive2/new.md' })).toMatchObject({ isError: false, text: 'Successfully renamed /memories/old.md to /memories/archive2/new.md' });
    expect(existsSync(join(memory, 'old.md'))).toBe(false);
    expect(readFileSync(join(memory, 'archive2/new.md'), 'utf8')).toMatch(/^---\nname: old\ndescription: to move\ntype: project\nupdated: \S+Z\n---\n/);
    expect(readFileSync(join(memory, 'MEMORY.md'), 'utf8')).toContain('(archive2/new.md)');
    expect(await call(client, 'memory', { command: 'delete', path: '/memories/archive2/new.md' })).toMatchObject({ isError: false, text: 'Successfully deleted /memories/archive2/new.md' });
    expect(readFileSync(join(memory, 'MEMORY.md'), 'utf8')).not.toContain('archive2/new.md');
    expect(await call(client, 'memory', { command: 'delete', path: '/memories/archive2/new.md' })).toMatchObject({ isError: true, text: 'The path /memories/archive2/new.md does not exist' });
    expect((await call(client, 'memory', { command: 'delete', path: '/memories/MEMORY.md' })).isError).toBe(true);
    expect(await call(client, 'memory', { command: 'delete', path: '/memories' })).toMatchObject({ isError: true, text: 'Cannot delete the /memories directory itself' });
    expect(existsSync(join(memory, 'MEMORY.md'))).toBe(true);
  });

  it('refuses paths that leave /memories, whatever their disguise', async () => {
    const outside = join(dir, 'outside.md');
    symlinkSync(dir, join(memory, 'link'));
    const cases = ['/etc/passwd', '/memories/../outside.md', '/memories/%2e%2e/outside.md', '/memories/a\0b.md', `/memories/${outside}`, '/memoriesx/a.md', '/memories/link/outside.md', '/memories/.memctx/lock'];
    for (const path of cases) {
      const out = await call(client, 'memory', { command: 'create', path, file_text: 'x' });
      expect(out.isError, path).toBe(true);
    }
    expect((await call(client, 'memory', { command: 'view', path: '/memories/../../etc/passwd' })).text).toMatch(/^Path \/memories\/\.\.\/\.\.\/etc\/passwd would escape \/memories directory/);
    expect(existsSync(outside)).toBe(false);
    expect(readdirSync(dir).sort()).toEqual(['.memory']);
    rmSync(join(memory, 'link'));
  });

  it('reports missing, wrong-typed and unknown arguments and tools as tool errors', async () => {
    expect(await call(client, 'memory', { command: 'create', path: '/memories/x.md' })).toMatchObject({ isError: true, text: 'create needs file_text; it takes path, file_text' });
    const typed = await call(client, 'memory', { command: 'insert', path: '/memories/twice.md', insert_line: 'two', insert_text: 'x' });
    expect(typed.isError).toBe(true);
    expect(typed.text).toBe('insert_line must be a whole number of at least 0, got "two"');
    expect((await call(client, 'memory', { command: 'chmod', path: '/memories/x.md' })).isError).toBe(true);
    expect(await call(client, 'nope', {})).toMatchObject({ isError: true, text: 'unknown tool "nope"; the tools are memory, search, pack, status, flush, lint' });
    expect((await call(client, 'memory', { command: 'create', path: '/memories/notes.txt', file_text: 'x' })).text).toMatch(/use a path ending in \.md, such as \/memories\/notes\.md$/);
  });

  it('search, pack, lint, status and flush answer with structured content', async () => {
    const search = await call(client, 'search', { query: 'tokens', limit: 3 });
    expect((search.structured?.hits as Array<{ path: string }>).map((h) => h.path)).toContain('project_auth.md');
    const pack = await call(client, 'pack', { task: 'login tokens', budget: 4000 });
    expect(pack.text).toContain('Tokens are JWTs.');
    expect(pack.structured).toMatchObject({ budget: 4000, task: 'login tokens' });
    const lint = await call(client, 'lint', {});
    expect(lint.structured).toMatchObject({ errorCount: expect.any(Number), warningCount: expect.any(Number) });
    expect(Array.isArray(lint.structured?.findings)).toBe(true);
    const status = await call(client, 'status', { transcript: join(dir, 'missing.jsonl') });
    expect(status.isError).toBe(true);
    expect(status.text).toContain('missing.jsonl');
    writeFileSync(join(dir, 'session.jsonl'), readFileSync(join(REPO, 'fixtures/transcripts/claude-session.jsonl')));
    const recorded = await call(client, 'status', { transcript: 'session.jsonl' });
    expect(recorded.isError).toBe(false);
    expect(recorded.structured).toMatchObject({ percent: expect.any(Number), window: expect.any(Number), level: expect.stringMatching(/^(green|yellow|orange|red)$/) });
    const six = { goal: 'ship the MCP server', progress: ['wrote the tools'], decisions: ['none'], changed_files: ['none'], blockers: ['none'], next_steps: ['write the docs'] };
    const dry = await call(client, 'flush', { ...six, dry_run: true });
    expect(dry.structured).toMatchObject({ written: false, path: expect.stringMatching(/^\/memories\/sessions\/.+\.md$/) });
    expect(existsSync(join(memory, 'sessions'))).toBe(false);
    const flush = await call(client, 'flush', six);
    expect(flush.isError).toBe(false);
    const saved = (flush.structured as { path: string; written: boolean }).path;
    expect(flush.structured).toMatchObject({ written: true });
    expect(readFileSync(join(memory, saved.slice('/memories/'.length)), 'utf8')).toContain('## Goal\n\nship the MCP server\n');
    expect(readFileSync(join(memory, 'MEMORY.md'), 'utf8')).toContain('— ship the MCP server');
    const index = await client.readResource({ uri: 'memctx://memory/MEMORY.md' });
    expect((index.contents[0] as { text: string }).text).toContain('(project_auth.md) — How login tokens work');
  });
});

describe('memctx mcp: reads nothing on the host outside the project', () => {
  const SECRET = 'DATABASE_URL=postgres://admin:hunter2@db.internal/prod';
  let dir: string;
  let outside: string;
  let client: Client;
  beforeAll(async () => {
    dir = setup();
    outside = tempDir('memctx-host-');
    writeFileSync(join(outside, 'shadow'), `root:*:19000:0:99999:7:::\n\n${SECRET}\n`);
    writeFileSync(join(outside, 'leak.jsonl'), `${SECRET}\n`);
    writeFileSync(join(outside, 'secret.py'), 'def leaked_function_name():\n    pass\n');
    writeFileSync(join(dir, '.env'), `${SECRET}\n`);
    mkdirSync(join(dir, 'logs'));
    symlinkSync(join(outside, 'leak.jsonl'), join(dir, 'logs', 'link.jsonl'));
    client = await connect(dir);
  });
  afterAll(async () => {
    await client.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  it('status refuses transcripts outside the project, hidden files and symlinks out, echoing nothing of them', async () => {
    for (const transcript of [join(outside, 'shadow'), join(outside, 'leak.jsonl'), '../../.env', '.env', join(dir, '.env'), 'logs/link.jsonl', '/etc/passwd', 'x.jsonl\0']) {
      const answer = await call(client, 'status', { transcript });
      expect(answer.isError, transcript).toBe(true);
      expect(answer.text).toContain("outside this project's transcripts");
      expect(answer.text).not.toContain('hunter2');
      expect(answer.text).not.toContain('root:');
      expect(answer.structured).toBeUndefined();
    }
  });

  it("status reads a session from Claude Code's project folder for this project", async () => {
    const { claudeProjectDir } = await import('../../src/store/find.js');
    const folder = claudeProjectDir(dir, dir, {});
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'abc.jsonl'), readFileSync(join(REPO, 'fixtures/transcripts/claude-session.jsonl')));
    const answer = await call(client, 'status', { transcript: join(folder, 'abc.jsonl') });
    expect(answer.isError).toBe(false);
    expect(answer.structured).toMatchObject({ window: expect.any(Number) });
    writeFileSync(join(folder, 'notes.txt'), SECRET);
    expect((await call(client, 'status', { transcript: join(folder, 'notes.txt') })).isError).toBe(true);
  });

  it('flush lists a changed file outside the project without reading it', async () => {
    const answer = await call(client, 'flush', { goal: 'g', progress: ['p'], decisions: ['none'], changed_files: [join(outside, 'secret.py')], blockers: ['none'], next_steps: ['none'], dry_run: true });
    expect(answer.isError).toBe(false);
    expect(answer.text).toContain('secret.py');
    expect(answer.text).not.toContain('leaked_function_name');
  });
});

describe('memctx mcp: protocol abuse', () => {
  it('answers a malformed line with a parse error and keeps serving', async () => {
    const dir = setup();
    try {
      const child = spawn(process.execPath, [BIN, '--dir', join(dir, '.memory'), 'mcp'], { cwd: dir, env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' } });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
      const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
      child.stdin.end(`${JSON.stringify(init)}\nnot json{\n{"jsonrpc":"2.0","id":7,"method":"no/such/method"}\n${JSON.stringify(list)}\n`);
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code).toBe(0);
      const replies = out.trim().split('\n').map((line) => JSON.parse(line) as { id: number | null; error?: { code: number } });
      expect(replies.find((r) => r.id === null)?.error?.code).toBe(-32700);
      expect(replies.find((r) => r.id === 7)?.error?.code).toBe(-32601);
      expect(replies.some((r) => r.id === 2 && !r.error)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a client that disconnects mid-call leaves the file whole or absent, and no lock or temporary file', async () => {
    const dir = setup();
    const memory = join(dir, '.memory');
    try {
      const client = await connect(dir);
      const big = `# Big\n\n${'a line of text that is long enough\n'.repeat(20_000)}`;
      const pending = client.callTool({ name: 'memory', arguments: { command: 'create', path: '/memories/big.md', file_text: big } }).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 50));
      await client.close();
      await pending;
      // The server finishes the call in flight, then exits.
      for (let i = 0; i < 100 && existsSync(join(memory, '.memctx', 'lock')); i++) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(existsSync(join(memory, '.memctx', 'lock'))).toBe(false);
      const names = readdirSync(memory);
      expect(names.filter((n) => !['.memctx', 'MEMORY.md', 'big.md', 'project_auth.md', 'twice.md'].includes(n))).toEqual([]);
      if (existsSync(join(memory, 'big.md'))) expect(readFileSync(join(memory, 'big.md'), 'utf8').endsWith(big)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
