// Issue 20 items 4, 5, 6 and 9 (MCP parts) and issue 21 item 2, through the MCP server in-process.
// Each test fails on the code before them (noted per test).
import { mkdirSync, readFileSync, readdirSync, realpathSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { REPO, tempDir } from '../helpers/cli.js';
import { callTool, connectInProcess } from '../helpers/mcp.js';
import { SECRETS_24 } from '../helpers/secrets24.js';
import { memoryErrorText } from '../../src/actions/memory-errors.js';
import { MemctxError } from '../../src/errors.js';

const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
});

function project(): { dir: string; root: string } {
  const dir = realpathSync(tempDir('memctx-mcp-hard-'));
  const root = join(dir, '.memory');
  mkdirSync(root);
  writeFileSync(join(root, 'project_auth.md'), '---\nname: auth\ndescription: How login tokens work\ntype: project\nimportance: 3\n---\n\nTokens are JWTs.\n');
  return { dir, root };
}

async function open(): Promise<{ dir: string; root: string; client: Client }> {
  const p = project();
  const client = await connectInProcess(p.root, p.dir);
  clients.push(client);
  return { ...p, client };
}

const memory = (client: Client, args: Record<string, unknown>) => callTool(client, 'memory', args);

describe('the memory tool writes only what `memctx add` accepts (issue 21 item 2; the old tool wrote all of these)', () => {
  it.each([
    ['type: bogus', 'frontmatter/invalid-type', 'invalid type "bogus"; expected one of user, feedback, project, reference'],
    ['type: project\nimportance: 99', 'frontmatter/importance-range', '"importance" must be a whole number from 1 to 10 (got 99)'],
    ['type: project\nkind: whim', 'frontmatter/invalid-kind', 'unknown kind "whim"; expected one of decision, issue, state, learning, session, note'],
    ['type: project\nexpires: 2026-02-30', 'frontmatter/invalid-date', '2026-02-30'],
  ])('create with %s is refused naming the field and its allowed values', async (fields, rule, message) => {
    const { root, client } = await open();
    const answer = await memory(client, { command: 'create', path: '/memories/bad.md', file_text: `---\nname: bad\ndescription: d\n${fields}\n---\n\nbody\n` });
    expect(answer.isError).toBe(true);
    expect(answer.text).toContain(message);
    expect(answer.text).toContain(rule);
    expect(answer.text).toMatch(/^Nothing written: \/memories\/bad\.md line \d+: /);
    expect(existsSync(join(root, 'bad.md'))).toBe(false);
  });

  it('str_replace and insert may not add a problem, but may edit a file that already had one', async () => {
    const { root, client } = await open();
    const before = readFileSync(join(root, 'project_auth.md'), 'utf8');
    const raised = await memory(client, { command: 'str_replace', path: '/memories/project_auth.md', old_str: 'importance: 3', new_str: 'importance: 99' });
    expect(raised).toMatchObject({ isError: true, text: expect.stringContaining('"importance" must be a whole number from 1 to 10 (got 99)') });
    // `---` at line 0 used to turn the frontmatter into body text silently (issue 20 item 9).
    const fence = await memory(client, { command: 'insert', path: '/memories/project_auth.md', insert_line: 0, insert_text: '---' });
    expect(fence.isError).toBe(true);
    expect(fence.text).toMatch(/^Nothing written: /);
    expect(readFileSync(join(root, 'project_auth.md'), 'utf8')).toBe(before);
    writeFileSync(join(root, 'old.md'), '---\nname: old\ndescription: d\ntype: legacy\n---\n\nbody\n');
    expect((await memory(client, { command: 'str_replace', path: '/memories/old.md', old_str: 'body', new_str: 'new body' })).isError).toBe(false);
  });
});

describe('the configured types count, as for `memctx add`', () => {
  it('memctx.config.json types: [project, runbook] lets the tool write a runbook and lists them when refusing', async () => {
    const { dir, root, client } = await open();
    // A write before the configuration exists: the setup found then must not outlive the new file.
    expect((await memory(client, { command: 'create', path: '/memories/first.md', file_text: 'first\n' })).isError).toBe(false);
    expect((await memory(client, { command: 'create', path: '/memories/early.md', file_text: '---\nname: e\ndescription: d\ntype: runbook\n---\n' })).isError).toBe(true);
    writeFileSync(join(dir, 'memctx.config.json'), JSON.stringify({ types: ['project', 'runbook'] }));
    const ok = await memory(client, { command: 'create', path: '/memories/deploy.md', file_text: '---\nname: deploy\ndescription: how to deploy\ntype: runbook\n---\n\nsteps\n' });
    expect(ok.isError).toBe(false);
    expect(existsSync(join(root, 'deploy.md'))).toBe(true);
    const bad = await memory(client, { command: 'create', path: '/memories/x.md', file_text: '---\nname: x\ndescription: d\ntype: user\n---\n' });
    expect(bad.text).toContain('invalid type "user"; expected one of project, runbook');
  });
});

describe('templates/, archive/ and directories (issue 20 item 9)', () => {
  it('reads templates/ and archive/ but writes, renames and deletes nothing there; a directory delete is refused', async () => {
    const { root, client } = await open();
    mkdirSync(join(root, 'templates'));
    mkdirSync(join(root, 'archive'));
    writeFileSync(join(root, 'templates', 'session.md'), '## Goal\n');
    writeFileSync(join(root, 'archive', 'old.md'), '---\nname: old\ndescription: d\ntype: project\n---\n');
    expect((await memory(client, { command: 'view', path: '/memories/templates/session.md' })).text).toContain('## Goal');
    expect((await memory(client, { command: 'view', path: '/memories/archive/old.md' })).isError).toBe(false);
    const refusals = [
      await memory(client, { command: 'create', path: '/memories/templates/x.md', file_text: 'x' }),
      await memory(client, { command: 'str_replace', path: '/memories/templates/session.md', old_str: 'Goal', new_str: 'Aim' }),
      await memory(client, { command: 'insert', path: '/memories/archive/old.md', insert_line: 5, insert_text: 'x' }),
      await memory(client, { command: 'delete', path: '/memories/archive/old.md' }),
      await memory(client, { command: 'rename', old_path: '/memories/project_auth.md', new_path: '/memories/archive/auth.md' }),
      await memory(client, { command: 'rename', old_path: '/memories/archive/old.md', new_path: '/memories/old.md' }),
      await memory(client, { command: 'delete', path: '/memories/Templates' }),
    ];
    expect(refusals.map((r) => r.isError)).toEqual([true, true, true, true, true, true, true]);
    expect(refusals[0].text).toContain('/memories/templates/x.md is in /memories/templates/, which the memory tool may read but not change');
    expect(readdirSync(join(root, 'templates'))).toEqual(['session.md']);
    expect(readdirSync(join(root, 'archive'))).toEqual(['old.md']);
    mkdirSync(join(root, 'notes'));
    writeFileSync(join(root, 'notes', 'a.md'), '---\nname: a\ndescription: d\ntype: project\n---\n');
    expect(await memory(client, { command: 'delete', path: '/memories/notes' })).toMatchObject({ isError: true, text: expect.stringContaining('/memories/notes is a directory; delete removes one file at a time') });
    expect(existsSync(join(root, 'notes', 'a.md'))).toBe(true);
  });

  it('an error naming a host file answers in /memories terms', () => {
    const root = '/home/someone/project/.memory';
    const text = memoryErrorText(new MemctxError('cannot write the file (EACCES)', { file: `${root}/notes/a.md`, hint: `check ${root}/.memctx and /etc/passwd` }), root);
    expect(text).toBe('/memories/notes/a.md: cannot write the file (EACCES) (check /memories/.memctx and …/passwd)');
    expect(text).not.toContain('/home/');
  });
});

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

describe('a directory view is capped (issue 20 item 5: 10,000 files used to answer ~1 MB)', () => {
  it('10,000 files: at most 2,000 lines and 40,000 characters, then how many were left out and how to narrow', async () => {
    const { root, client } = await open();
    mkdirSync(join(root, 'bulk'));
    for (let i = 0; i < 10_000; i++) writeFileSync(join(root, 'bulk', `note-${String(i).padStart(5, '0')}.md`), `---\nname: n${i}\ndescription: note ${i}\ntype: project\n---\n`);
    const answer = await memory(client, { command: 'view', path: '/memories' });
    expect(answer.isError).toBe(false);
    expect(answer.text.length).toBeLessThanOrEqual(40_000 + 400);
    const lines = answer.text.split('\n');
    expect(lines.length).toBeLessThanOrEqual(2_002);
    const rows = lines.filter((l) => /\t\/memories\/./.test(l)).length;
    const left = Number(/… (\d+) more entries left out/.exec(answer.text)?.[1]);
    // Every entry is shown or counted: 10,000 notes, bulk/ and project_auth.md.
    expect(rows + left).toBe(10_002);
    expect(answer.text).toMatch(/view a subfolder \(e\.g\. \/memories\/bulk\), or use the search tool/);
  }, 60_000);
});

describe('oversized writes are refused with a tool error (issue 20 item 6)', () => {
  it('file_text over the 1 MiB a memory file may hold writes nothing and names the limit', async () => {
    const { root, client } = await open();
    const answer = await memory(client, { command: 'create', path: '/memories/big.md', file_text: 'x'.repeat(2 * 1024 * 1024) });
    expect(answer).toMatchObject({ isError: true, text: expect.stringContaining("file_text is 2097152 bytes, over memctx's 1048576-byte limit for a memory file") });
    expect(existsSync(join(root, 'big.md'))).toBe(false);
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

describe('every tool: schemas derived from src/schemas/, structured content that validates, truthful annotations (issue 21 item 4)', () => {
  it('lists each tool with its schemas; each answer validates against its outputSchema', async () => {
    const TOOLS = await (await import('../../src/mcp/server.js')).loadTools();
    const v = await import('valibot');
    const { dir, client } = await open();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['memory', 'search', 'pack', 'status', 'flush', 'lint']);
    // Only status writes nothing at all; search, pack and lint write memctx's caches.
    expect(Object.fromEntries(tools.map((t) => [t.name, t.annotations?.readOnlyHint]))).toEqual({ memory: false, search: false, pack: false, status: true, flush: false, lint: false });
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
