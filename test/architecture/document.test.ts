// ARCHITECTURE.md stays short and true of the tree: what it names exists, and its rules on who writes files,
// who touches the terminal and where complexity is excused hold in the code.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.js';

const SRC = join(REPO, 'src');
const DOC = readFileSync(join(REPO, 'ARCHITECTURE.md'), 'utf8');
const FILES = (readdirSync(SRC, { recursive: true }) as string[]).map((f) => f.split('\\').join('/')).filter((f) => f.endsWith('.ts'));
const text = (file: string) => readFileSync(join(SRC, file), 'utf8');

/** Places the page names in backticks or in its drawing that are not source paths. */
const NOT_SOURCE = new Set(['.git/memctx/<memory path>/', 'commands/<name>/', 'src/commands/<name>/', '<name>.ts', 'formats/<name>.ts', 'test/']);

describe('ARCHITECTURE.md', () => {
  it('is at most 8 KB', () => {
    expect(statSync(join(REPO, 'ARCHITECTURE.md')).size).toBeLessThanOrEqual(8 * 1024);
  });

  it('names only folders and modules that exist (under src/, src/kernel/ or the repository)', () => {
    const named = new Set<string>();
    for (const m of DOC.matchAll(/`([\w.<>-]+(?:\/[\w.<> -]+)*(?:\/|\.ts|\.js|\.mjs))`/g)) named.add(m[1]);
    for (const m of DOC.matchAll(/^([\w./<>-]+\/?(?:\.ts|\.js)?)\s{2,}/gm)) named.add(m[1]);
    const names = new Set(FILES.map((f) => f.split('/').pop()));
    const exists = (p: string) => (p.includes('/') ? [join(SRC, p), join(SRC, 'kernel', p), join(REPO, p)].some((abs) => existsSync(abs)) : names.has(p));
    const missing = [...named].filter((p) => !NOT_SOURCE.has(p) && !exists(p));
    expect(named.size).toBeGreaterThan(30);
    expect(missing).toEqual([]);
  });
});

describe('who may do what', () => {
  const WRITE_NAMES = /^(?:writeFile|appendFile|rename|unlink|rm|rmdir|mkdir|link|symlink|copyFile|truncate|createWriteStream|writeSync|chmod)(?:Sync)?$/;
  const FS = `['"](?:node:)?fs(?:\\/promises)?['"]`;
  /** A module that takes a write function from node:fs, by name or through a namespace, `await import` or `process.getBuiltinModule`. */
  const writes = (source: string): boolean => {
    const namespaces = [...source.matchAll(new RegExp(`import\\s*\\*\\s*as\\s*(\\w+)\\s*from\\s*${FS}|const\\s+(\\w+)\\s*=\\s*process\\.getBuiltinModule\\(${FS}\\)`, 'g'))].map((m) => m[1] ?? m[2]);
    const named = [
      ...source.matchAll(new RegExp(`import\\s*\\{([^}]*)\\}\\s*from\\s*${FS}`, 'g')),
      ...source.matchAll(new RegExp(`\\{([^}]*)\\}\\s*=\\s*(?:await import|process\\.getBuiltinModule)\\(${FS}\\)`, 'g')),
      ...namespaces.flatMap((ns) => [...source.matchAll(new RegExp(`\\{([^}]*)\\}\\s*=\\s*${ns}\\b`, 'g'))]),
    ];
    if (named.some((m) => m[1].split(',').some((name) => WRITE_NAMES.test(name.trim().split(/\s+as\s+|\s*:\s*/)[0])))) return true;
    return namespaces.some((ns) => [...source.matchAll(new RegExp(`\\b${ns}\\.(\\w+)\\(`, 'g'))].some((c) => WRITE_NAMES.test(c[1])));
  };

  it('files change only where the page says', () => {
    const allowed = /^kernel\/(store|state)\/|^kernel\/summary\/files\.ts$|^commands\/hook\/install\.ts$|^commands\/init\/scaffold\.ts$|^kernel\/cli\/context\.ts$/;
    const writers = FILES.filter((f) => writes(text(f)));
    expect(writers).toContain('kernel/store/write.ts');
    expect(writers.filter((f) => !allowed.test(f))).toEqual([]);
    expect(DOC).toContain('Memory files are written by `kernel/store/write.ts` alone');
    // kernel/cli/context.ts writes the process's stdout and stderr (fd 1 and 2), never a file
    expect(writers.filter((f) => f.startsWith('kernel/cli/'))).toEqual(['kernel/cli/context.ts']);
    expect(text('kernel/cli/context.ts').match(/\bwriteSync\((\w+)/g)).toEqual(['writeSync(fd']);
    expect(DOC).toContain('`kernel/cli/context.ts` writes\n  fd 1 and 2 with `writeSync`');
  });

  it('only kernel/cli/, the commands\' cli.ts and src/main.ts touch the terminal', () => {
    const terminal = FILES.filter((f) => /\bprocess\.(stdout|stderr)\b|\bconsole\.\w+\(/.test(text(f)));
    expect(terminal.filter((f) => !/^kernel\/cli\/|^commands\/[^/]+\/cli\.ts$|^main\.ts$/.test(f))).toEqual([]);
  });

  it('a complexity disable comment remains only in the modules the page names', () => {
    const excused = FILES.filter((f) => /eslint-disable(?:-next-line)?\s+complexity/.test(text(f)));
    expect(excused.filter((f) => !DOC.includes(`\`${f}\``))).toEqual([]);
  });
});
