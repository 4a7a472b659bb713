import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../helpers/cli.js';
import { runMemctx } from '../../helpers/run.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

function memoryDir(files: number): { cwd: string; root: string } {
  const cwd = tempDir();
  dirs.push(cwd);
  const root = join(cwd, '.memory');
  mkdirSync(root);
  for (let i = 0; i < files; i++) {
    writeFileSync(join(root, `note_${String(i).padStart(3, '0')}.md`), `---\nname: Note ${i}\ndescription: note number ${i}\ntype: project\nupdated: 2026-01-01\n---\nbody\n`);
  }
  return { cwd, root };
}

const lineCount = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

describe('configuration that is read is used', () => {
  it('thresholds.indexMaxLines and indexMaxBytes reach the generator: index, lint and lint --fix agree', async () => {
    const { cwd, root } = memoryDir(40);
    writeFileSync(join(root, 'config.json'), JSON.stringify({ thresholds: { indexMaxLines: 20, indexMaxBytes: 1500 } }));
    expect((await runMemctx(['index'], { cwd })).code).toBe(0);
    const index = readFileSync(join(root, 'MEMORY.md'), 'utf8');
    expect(lineCount(index)).toBeLessThanOrEqual(20);
    expect(Buffer.byteLength(index)).toBeLessThanOrEqual(1500);
    expect(lineCount(index)).toBeGreaterThanOrEqual(19);
    const lint = await runMemctx(['lint', '--format', 'json'], { cwd });
    const ids = (JSON.parse(lint.stdout) as { messages: { ruleId: string }[] }[]).flatMap((f) => f.messages.map((m) => m.ruleId));
    expect(ids).not.toContain('index/too-long');
    expect(ids).not.toContain('index/stale');
    expect((await runMemctx(['index', '--check'], { cwd })).code).toBe(0);
  });

  it('200 lines allowed means 200 lines', async () => {
    const { cwd, root } = memoryDir(300);
    expect((await runMemctx(['index'], { cwd })).code).toBe(0);
    expect(lineCount(readFileSync(join(root, 'MEMORY.md'), 'utf8'))).toBe(200);
  });

  it('a misspelt top-level key is warned about', async () => {
    const { cwd, root } = memoryDir(1);
    writeFileSync(join(root, 'config.json'), JSON.stringify({ threshold: { maxTokens: 5 }, rules: {} }));
    const lint = await runMemctx(['lint'], { cwd });
    expect(lint.stderr).toContain('unknown key "threshold"; ignored (did you mean "thresholds"?)');
  });
});
