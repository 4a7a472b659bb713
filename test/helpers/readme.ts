/** The README's and docs' runnable shell commands, shared by the README test and the newcomer walkthrough (test/e2e/recipes/). */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';

export interface Command {
  /** 1-based README line where the command starts. */
  line: number;
  text: string;
  expectedExit: number;
  /** On the second run, when it differs. */
  againExit?: number;
}

const SHELL = /^(sh|bash|shell)(\s|$)/;

/** The runnable commands of a Markdown text, in order. */
export function readmeCommands(markdown: string): Command[] {
  const lines = markdown.split('\n');
  const out: Command[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^(`{3,})(.*)$/.exec(lines[i]);
    if (!fence) continue;
    const info = fence[2].trim();
    const skipped = !SHELL.test(info) || /\bnot-run\b/.test(info) || /^<!--\s*not-run\b/.test(lines[i - 1] ?? '');
    let end = i + 1;
    while (end < lines.length && !lines[end].startsWith(fence[1])) end++;
    for (let j = i + 1; !skipped && j < end; j++) {
      if (lines[j].trim() === '' || lines[j].trimStart().startsWith('#')) continue;
      const start = j;
      let text = lines[j];
      while (text.endsWith('\\') && j + 1 < end) text = `${text}\n${lines[++j]}`;
      const comment = /\s{2,}#\s*(.*)$/.exec(text.split('\n').pop()!);
      const exit = comment ? /^exit (\d+)\b(?: \((\d+) when run again\b)?/.exec(comment[1]) : null;
      out.push({ line: start + 1, text, expectedExit: exit ? Number(exit[1]) : 0, ...(exit?.[2] ? { againExit: Number(exit[2]) } : {}) });
    }
    i = end;
  }
  return out;
}

/**
 * The pages whose examples run, in this order: README.md, then docs/ in the order the README once held
 * these sections (later examples build on files and variables earlier ones made), then any other
 * page under docs/ by path. A page named here that no longer exists is an error, so a rename is seen.
 */
const DOC_ORDER = [
  'README.md',
  'docs/commands/mcp.md',
  'docs/library.md',
  'docs/memory-format.md',
  'docs/security.md',
  'docs/cli.md',
  'docs/commands/init.md',
  'docs/commands/index.md',
  'docs/commands/files.md',
  'docs/commands/pack.md',
  'docs/commands/search.md',
  'docs/commands/status.md',
  'docs/commands/compact.md',
  'docs/commands/flush.md',
  'docs/commands/sessions.md',
  'docs/agents.md',
  'docs/commands/lint.md',
  'docs/commands/gc.md',
  'docs/ci.md',
  'docs/git.md',
  'docs/benchmarks.md',
];

/** Every Markdown page under `dir` (relative to `repo`), sorted. */
function markdownUnder(repo: string, dir: string): string[] {
  return readdirSync(join(repo, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => `${dir}/${name.split(sep).join('/')}`)
    .sort();
}

/** README.md and every docs/**\/*.md page, in DOC_ORDER first. */
export function docPages(repo: string): string[] {
  for (const page of DOC_ORDER) if (!existsSync(join(repo, page))) throw new Error(`${page} is named in DOC_ORDER but does not exist`);
  return [...DOC_ORDER, ...markdownUnder(repo, 'docs').filter((page) => !DOC_ORDER.includes(page))];
}

/** The runnable commands of README.md and the docs, in docPages order, each with its page. */
export function docCommands(repo: string): (Command & { file: string })[] {
  return docPages(repo).flatMap((file) => readmeCommands(readFileSync(join(repo, file), 'utf8')).map((c) => ({ ...c, file })));
}
