import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lint } from 'markdownlint-cli2/markdownlint/promise';
import { runMemctx } from '../helpers/run.js';
import { tempDir } from '../helpers/cli.js';

/** markdownlint-cli2's defaults, line length (MD013) and first-line heading (MD041) aside. */
async function problems(strings: Record<string, string>): Promise<string[]> {
  const results = await lint({ strings, config: { default: true, MD013: false, MD041: false } });
  return Object.entries(results).flatMap(([name, list]) => list.map((e) => `${name}:${e.lineNumber} ${e.ruleNames.join('/')} ${e.errorDetail ?? ''}`));
}

describe('generated Markdown is clean under markdownlint', () => {
  it('MEMORY.md, a session file and pack bundles at several budgets', async () => {
    const cwd = tempDir('memctx-mdlint-');
    try {
      const run = (args: string[], input?: string) => runMemctx(args, { cwd, input });
      await run(['init']);
      for (const [name, type] of [['prefs', 'user'], ['style', 'feedback'], ['auth', 'project'], ['api', 'reference']]) {
        await run(['add', name, '--name', name, '--description', `All about ${name}`, '--type', type, '--body', `# ${name}\n\nSome text about ${name}.\n\n- one\n- two\n`]);
      }
      await run(['add', 'decision', '--name', 'db', '--description', 'Postgres', '--type', 'project', '--kind', 'decision', '--body', 'We chose Postgres.']);
      const flushed = await run(['flush', '--goal', 'Ship the MCP server', '--progress', 'wrote tools', '--decision', 'stdio only: simplest', '--changed', 'src/mcp/server.ts', '--next', 'docs']);
      expect(flushed.code).toBe(0);
      const sessions = join(cwd, '.memory/sessions');
      const strings: Record<string, string> = {
        'MEMORY.md': readFileSync(join(cwd, '.memory/MEMORY.md'), 'utf8'),
        'session.md': readFileSync(join(sessions, readdirSync(sessions)[0]), 'utf8'),
      };
      for (const budget of ['200', '400', '800', '25000']) strings[`pack-${budget}.md`] = (await run(['pack', '--budget', budget])).stdout;
      strings['pack-task.md'] = (await run(['pack', '--task', 'auth api', '--budget', '600'])).stdout;
      expect(strings['pack-25000.md']).toContain('## Files in full');
      expect(await problems(strings)).toEqual([]);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});
