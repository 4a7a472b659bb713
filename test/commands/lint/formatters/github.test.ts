import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../../helpers/cli.js';
import { runMemctx } from '../../../helpers/run.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

/**
 * What the Actions runner would obey in this output: `::command` at a line's start (after blanks),
 * `##[` anywhere, and nothing between `::stop-commands::TOKEN` and `::TOKEN::`.
 */
function obeyedCommands(output: string): string[] {
  const obeyed: string[] = [];
  let stopToken: string | undefined;
  for (const raw of output.split(/\r\n|\r|\n/)) {
    const line = raw.trimStart();
    if (stopToken !== undefined) {
      if (line === `::${stopToken}::`) stopToken = undefined;
      continue;
    }
    const stop = /^::stop-commands::(.+)$/.exec(line);
    if (stop) stopToken = stop[1];
    else if (line.startsWith('::') || line.includes('##[')) obeyed.push(line);
  }
  return obeyed;
}

describe('lint --format github cannot be forged', () => {
  it('a frontmatter value, a body and a file name cannot add an annotation or a ##[ command', async () => {
    const cwd = tempDir();
    dirs.push(cwd);
    const root = join(cwd, '.memory');
    mkdirSync(root);
    writeFileSync(
      join(root, 'forge.md'),
      '---\nname: Forge\ndescription: "##[error]forged description"\ntype: project\nupdated: "soon\\n::error file=README.md,line=1,title=Build broken::Forged"\nimportance: "##[warning]x"\n---\nbody\n',
    );
    writeFileSync(join(root, '::error file=README.md::name.md'), '---\nname: X\ndescription: "\\r::warning::cr"\ntype: project\nupdated: "\\r::error::cr"\n---\n');
    const result = await runMemctx(['lint', '--format', 'github'], { cwd });
    expect(result.code).toBe(1);
    const obeyed = obeyedCommands(result.stdout);
    expect(obeyed.length).toBeGreaterThan(2);
    for (const line of obeyed) {
      expect(line).toMatch(/^::(error|warning) file=[^:]*,title=memctx [a-z/-]+::|^::(error|warning) file=[^:]*,line=\d+,col=\d+,title=memctx [a-z/-]+::/);
      expect(/ file=([^,]*)/.exec(line)![1]).toMatch(/^\.memory\/(MEMORY\.md|forge\.md|%3A%3Aerror file=README\.md%3A%3Aname\.md)$/);
      expect(line).not.toContain('##[');
    }
    expect(result.stdout).toContain('::stop-commands::memctx-');
    expect(result.stdout).toContain('Forged');
  });
});
