// Duplicates stopped at write time (issue 35): add, edit and the memory tool refuse a near-duplicate, naming the file to update; --force / force keeps both.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../helpers/cli.js';
import { runCli } from '../../../helpers/run.js';
import { callTool, connectInProcess } from '../../../helpers/mcp.js';

const AUTH = 'Auth tokens are refreshed by the session middleware every fifteen minutes, and a failed refresh logs the user out after showing a notice.';
const AUTH_AGAIN = 'Auth tokens are refreshed by the session middleware every fifteen minutes, and a failed refresh logs the user out after showing a warning.';
const OTHER = 'The release script tags the commit, builds the bundle with esbuild and uploads the tarball to the registry from CI only.';

async function project(): Promise<{ cwd: string; root: string }> {
  const cwd = tempDir('memctx-dup-');
  expect((await runCli(['init'], { cwd })).code).toBe(0);
  const first = await runCli(['add', 'project_auth.md', '--name', 'Auth', '--description', 'token refresh', '--type', 'project', '--kind', 'decision', '--body', AUTH], { cwd });
  expect(first.stderr).toBe('');
  return { cwd, root: join(cwd, '.memory') };
}

const add = (cwd: string, path: string, body: string, ...extra: string[]) => runCli(['add', path, '--name', path, '--description', 'd', '--type', 'project', ...extra, '--body', body], { cwd });

describe('add', () => {
  it('refuses a near-duplicate (exit 1), naming the file to update and --force; writes nothing', async () => {
    const { cwd, root } = await project();
    const refused = await add(cwd, 'auth_refactor.md', AUTH_AGAIN);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^memctx: error: auth_refactor\.md: auth_refactor\.md would nearly duplicate project_auth\.md \(similarity 0\.\d\d, threshold 0\.85\); nothing was written\n {2}hint: update project_auth\.md instead \(`memctx edit project_auth\.md --old … --new …`\); --force keeps both\n$/);
    expect(existsSync(join(root, 'auth_refactor.md'))).toBe(false);
    expect((await add(cwd, 'auth_refactor.md', AUTH_AGAIN, '--force')).code).toBe(0);
    expect(readFileSync(join(root, 'auth_refactor.md'), 'utf8')).toContain(AUTH_AGAIN);
  });

  it('accepts a distinct memory, and offers supersedes: for a second decision on the subject', async () => {
    const { cwd } = await project();
    expect((await add(cwd, 'release.md', OTHER)).code).toBe(0);
    const decision = await add(cwd, 'auth_v2.md', AUTH_AGAIN, '--kind', 'decision');
    expect(decision.code).toBe(1);
    expect(decision.stderr).toContain('or, if this decision replaces it, add --field supersedes=project_auth.md; --force keeps both');
  });
});

describe('edit', () => {
  it('refuses an edit that makes a file a near-duplicate of another; --force keeps it', async () => {
    const { cwd, root } = await project();
    expect((await add(cwd, 'release.md', OTHER)).code).toBe(0);
    const refused = await runCli(['edit', 'release.md', '--old', OTHER, '--new', AUTH_AGAIN], { cwd });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('release.md would nearly duplicate project_auth.md');
    expect(readFileSync(join(root, 'release.md'), 'utf8')).toContain(OTHER);
    expect((await runCli(['edit', 'release.md', '--old', OTHER, '--new', AUTH_AGAIN, '--force'], { cwd })).code).toBe(0);
  });
});

describe('the memory tool', () => {
  it('create and str_replace refuse a near-duplicate; force: true keeps both', async () => {
    const { cwd, root } = await project();
    const client = await connectInProcess(root, cwd);
    const refused = await callTool(client, 'memory', { command: 'create', path: '/memories/auth2.md', file_text: AUTH_AGAIN });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/^Nothing written: \/memories\/auth2\.md would nearly duplicate \/memories\/project_auth\.md \(similarity 0\.\d\d, threshold 0\.85\)\. Update \/memories\/project_auth\.md with str_replace instead; pass force: true to keep both\.$/);
    expect(existsSync(join(root, 'auth2.md'))).toBe(false);
    expect((await callTool(client, 'memory', { command: 'create', path: '/memories/release.md', file_text: `---\nname: release\ndescription: how releases go\ntype: project\n---\n\n${OTHER}\n` })).isError).toBe(false);
    const edit = await callTool(client, 'memory', { command: 'str_replace', path: '/memories/release.md', old_str: OTHER, new_str: AUTH_AGAIN });
    expect(edit.isError).toBe(true);
    expect(edit.text).toContain('would nearly duplicate /memories/project_auth.md');
    expect((await callTool(client, 'memory', { command: 'create', path: '/memories/auth2.md', file_text: AUTH_AGAIN, force: true })).isError).toBe(false);
    await client.close();
  });
});
