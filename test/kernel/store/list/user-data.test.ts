import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, removeDir, tempDir } from '../../../helpers/cli.js';
import { runMemctx } from '../../../helpers/run.js';
import { listEntries } from '../../../../src/kernel/store/list.js';
import { writeAndReindex } from '../../../../src/kernel/memindex/reindex.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

function memoryDir(): { cwd: string; root: string } {
  const cwd = tempDir();
  dirs.push(cwd);
  const root = join(cwd, '.memory');
  mkdirSync(root);
  writeFileSync(join(root, 'a.md'), '---\nname: A\ndescription: first\ntype: user\n---\nbody\n');
  return { cwd, root };
}

const PROTOTYPE_KEYS = ['constructor', 'toString', 'valueOf', 'hasOwnProperty'];

describe('prototype keys in user data are ordinary names', () => {
  it('a threshold named constructor is an unknown threshold, not a crash', async () => {
    const { cwd, root } = memoryDir();
    writeFileSync(join(root, 'config.json'), '{"thresholds":{"constructor":1,"toString":2}}');
    const result = await runMemctx(['lint'], { cwd });
    expect(result.stderr).not.toContain('unexpected failure');
    expect(result.stderr).toContain('unknown threshold "constructor"');
  });

  it.each(PROTOTYPE_KEYS)('flush --field %s=x, the same key in --from, and {{%s}} in a template', async (key) => {
    const { cwd, root } = memoryDir();
    const field = await runMemctx(['flush', '--goal', 'g', '--field', `${key}=x`, '--dry-run'], { cwd });
    expect(field.stderr).not.toContain('unexpected failure');
    expect(field.code).toBe(0);
    writeFileSync(join(cwd, 'from.json'), JSON.stringify({ goal: 'g', [key]: ['y'] }));
    const from = await runMemctx(['flush', '--from', 'from.json', '--dry-run'], { cwd });
    expect(from.stderr).not.toContain('unexpected failure');
    expect(from.code).toBe(0);
    mkdirSync(join(root, 'templates'), { recursive: true });
    writeFileSync(join(root, 'templates', 't.md'), `---\nname: t\n---\n# Note\n\n{{${key}}}\n`);
    const template = await runMemctx(['flush', '--template', 't', '--field', `${key}=z`], { cwd });
    expect(template.stderr).not.toContain('unexpected failure');
    expect(template.code).toBe(0);
  });
});

describe('unreadable folders and odd --dir values', () => {
  it('a folder that cannot be listed is skipped and reported; the rest is listed', () => {
    const { root } = memoryDir();
    mkdirSync(join(root, 'locked'));
    writeFileSync(join(root, 'locked', 'b.md'), 'x\n');
    const denied = Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
    const entries = listEntries(root, {
      readdirSync: ((path: string, options: { withFileTypes: true }) => {
        if (path.endsWith('locked') || path.endsWith('locked/')) throw denied;
        return readdirSync(path, options);
      }) as never,
    });
    expect(entries).toEqual([{ path: 'a.md', symlink: false }, { path: 'locked', symlink: false, error: 'EACCES' }]);
  });

  it('ls, index and add go on past a mode-000 folder (as a user that permissions apply to)', async () => {
    if (process.getuid?.() === 0) return; // root reads mode-000 folders; the listing test above covers the logic
    const { cwd, root } = memoryDir();
    mkdirSync(join(root, 'locked'));
    chmodSync(join(root, 'locked'), 0);
    try {
      const ls = await runMemctx(['ls'], { cwd });
      expect(ls.stdout).toContain('a.md');
      expect(ls.stderr).toContain('locked/: warning: cannot read this folder (EACCES)');
      const add = await runMemctx(['add', 'n.md', '--name', 'n', '--description', 'd', '--type', 'user'], { cwd });
      expect(add.code).toBe(0);
    } finally {
      chmodSync(join(root, 'locked'), 0o755);
    }
  });

  it('read-only commands pointed at a folder without MEMORY.md leave no .memctx/ there', async () => {
    const { cwd, root } = memoryDir();
    for (const args of [['ls'], ['search', 'first'], ['pack'], ['lint']]) await runMemctx(['--dir', root, ...args], { cwd });
    expect(existsSync(join(root, '.memctx'))).toBe(false);
  });

  it('a write that succeeded is not reported as failed when the re-index then fails', async () => {
    const { root } = memoryDir();
    writeFileSync(join(root, 'MEMORY.md'), '# Memory\n');
    const warnings: string[] = [];
    const result = await writeAndReindex(
      root,
      async () => {
        writeFileSync(join(root, 'n.md'), '---\nname: n\n---\n');
        // Something outside memctx breaks the index between the write and the rebuild.
        rmSync(join(root, 'MEMORY.md'));
        mkdirSync(join(root, 'MEMORY.md'));
        return 'written';
      },
      (message) => warnings.push(message),
    );
    expect(result.value).toBe('written');
    expect(result.index).toBeUndefined();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^the change was written, but MEMORY\.md was not rebuilt: .*run `memctx index`$/);
  });
});

describe('a reader that stops early', () => {
  it('memctx show big.md | head -c 1 stops quietly (no EPIPE stack)', async () => {
    const { cwd, root } = memoryDir();
    writeFileSync(join(root, 'big.md'), `---\nname: Big\ndescription: big\ntype: user\n---\n${'line of text\n'.repeat(60_000)}`);
    const child = spawn(process.execPath, [BIN, 'show', 'big.md'], { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(stderr).not.toContain('EPIPE');
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});
