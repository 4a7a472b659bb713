import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../../helpers/cli.js';
import { runMemctx } from '../../../helpers/run.js';
import { ParseFailure, parseMemoryText } from '../../../../src/kernel/store/parse.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));
const stat = { mtimeMs: 0, size: 0 };

describe('frontmatter edge cases', () => {
  it('a |+ block scalar as the last value keeps its trailing newlines, through lint --fix too', async () => {
    const text = '---\nname: Keep\ndescription: d\ntype: user\nnote: |+\n  line\n\n\n---\nbody\n';
    expect(parseMemoryText('k.md', text, stat).data.note).toBe('line\n\n\n');
    const cwd = tempDir();
    dirs.push(cwd);
    mkdirSync(join(cwd, '.memory'));
    writeFileSync(join(cwd, '.memory', 'k.md'), text.replace('type: user\n', 'type: user\nmodified: 2026-01-01\n'));
    await runMemctx(['lint', '--fix'], { cwd });
    expect(readFileSync(join(cwd, '.memory', 'k.md'), 'utf8')).toContain('note: |+\n  line\n\n\n---\n');
  });

  it('a file starting with two BOMs still has its frontmatter', () => {
    const file = parseMemoryText('b.md', '\uFEFF\uFEFF---\nname: Two BOMs\ndescription: d\n---\nbody\n', stat);
    expect(file.hasFrontmatter).toBe(true);
    expect(file.name).toBe('Two BOMs');
  });

  it('a CR-only file is read line by line, never echoed whole in an error', () => {
    const file = parseMemoryText('cr.md', '---\rname: Old Mac\rdescription: d\rtype: user\r---\rbody\r', stat);
    expect(file.name).toBe('Old Mac');
    expect(file.type).toBe('user');
    let message = '';
    try {
      parseMemoryText('x.md', `---${'x'.repeat(500)} secret-ish text`, stat);
    } catch (err) {
      message = (err as ParseFailure).message;
    }
    expect(message.length).toBeLessThan(100);
  });

  it('%YAML and %TAG directives get an error that says what they are', () => {
    for (const directive of ['%YAML 1.2', '%TAG ! tag:example.com,2000:']) {
      expect(() => parseMemoryText('d.md', `---\n${directive}\nname: x\n---\n`, stat)).toThrow(/YAML directives such as `%(YAML|TAG)[^`]*` are not supported in frontmatter/);
      try {
        parseMemoryText('d.md', `---\n${directive}\nname: x\n---\n`, stat);
      } catch (err) {
        expect((err as ParseFailure).line).toBe(2);
      }
    }
  });

  it('gc: states in two task folders with the same name do not supersede each other', async () => {
    const cwd = tempDir();
    dirs.push(cwd);
    const root = join(cwd, '.memory');
    for (const [task, date] of [['auth', '2026-01-01'], ['billing', '2026-06-01']]) {
      mkdirSync(join(root, 'tasks', task), { recursive: true });
      writeFileSync(join(root, 'tasks', task, 'state.md'), `---\nname: state\ndescription: ${task} state\ntype: project\nkind: state\nupdated: ${date}\nimportance: 8\n---\nbody\n`);
    }
    const gc = await runMemctx(['gc', '--json'], { cwd, now: new Date('2026-06-02T00:00:00Z') });
    expect(JSON.parse(gc.stdout).candidates).toEqual([]);
  });
});
