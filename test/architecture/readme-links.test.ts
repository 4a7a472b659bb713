import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, tempDir } from '../helpers/cli.js';
import { docPages } from '../helpers/readme.js';

/** The text outside fenced blocks, with inline code blanked, so links shown as code are not links. */
function prose(markdown: string): string {
  const out: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const open = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (open && open[1].startsWith(fence)) fence = undefined;
      out.push('');
    } else if (open) {
      fence = open[1];
      out.push('');
    } else out.push(line.replace(/(`+)[\s\S]*?\1/g, ''));
  }
  return out.join('\n');
}

/** The text outside fenced blocks, inline code kept (a heading's code is part of its anchor). */
function headings(markdown: string): string {
  let inFence = false;
  return markdown
    .split('\n')
    .filter((line) => {
      if (/^\s*(`{3,}|~{3,})/.test(line)) inFence = !inFence;
      return !inFence && /^#{1,6} /.test(line);
    })
    .join('\n');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading.replace(/`/g, '').toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').trim().replace(/\s/g, '-');
}

/** Every anchor a page offers: its headings (repeats numbered, as GitHub does) and `<a id>`s. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, heading] of headings(markdown).matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const base = slug(heading);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  for (const [, id] of markdown.matchAll(/<a id="([^"]+)"><\/a>/g)) out.add(id);
  return out;
}

/** The relative links of a page that lead nowhere: `page:line: target (why)`. */
function brokenLinks(repo: string, page: string, read: (path: string) => string): string[] {
  const text = read(page);
  const lines = prose(text).split('\n');
  const out: string[] = [];
  lines.forEach((line, i) => {
    for (const [, target] of line.matchAll(/\]\(([^()\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target)) continue;
      const [file, anchor] = target.split('#') as [string, string | undefined];
      const path = file ? posix.normalize(posix.join(posix.dirname(page), file)) : page;
      if (!existsSync(join(repo, path))) out.push(`${page}:${i + 1}: ${target} (no such file)`);
      else if (anchor !== undefined && (statSync(join(repo, path)).isDirectory() || !anchors(read(path)).has(anchor))) out.push(`${page}:${i + 1}: ${target} (no such anchor)`);
    }
  });
  return out;
}

const read = (path: string) => readFileSync(join(REPO, path), 'utf8');

describe('the link checker', () => {
  it('finds headings, numbered repeats and <a id> anchors; skips code; reports missing files and anchors', () => {
    const page = [
      '# Title', '## What the hook runs: `memctx index --staged`', '## Merging MEMORY.md: the merge driver', '## Notes', '## Notes',
      '| `x` | <a id="rule-x"></a>text |', '```', '# not a heading', '[shown](nowhere.md)', '```', '`[code](nowhere.md)`',
      '[a](#what-the-hook-runs-memctx-index---staged) [b](#merging-memorymd-the-merge-driver) [c](#notes-1) [d](#rule-x)',
      '[e](#not-a-heading) [f](missing.md) [g](page.md#title) [h](https://example.com/x#y) [i](sub/) [j](sub/other.md#other)',
    ].join('\n');
    const dir = tempDir();
    mkdirSync(join(dir, 'docs/sub'), { recursive: true });
    writeFileSync(join(dir, 'docs/page.md'), page);
    writeFileSync(join(dir, 'docs/sub/other.md'), '# Other\n[back](../page.md#notes) [up](../page.md#gone) [dir](../sub/)\n');
    const readIn = (path: string) => readFileSync(join(dir, path), 'utf8');
    expect(brokenLinks(dir, 'docs/page.md', readIn)).toEqual(['docs/page.md:13: #not-a-heading (no such anchor)', 'docs/page.md:13: missing.md (no such file)']);
    expect(brokenLinks(dir, 'docs/sub/other.md', readIn)).toEqual(['docs/sub/other.md:2: ../page.md#gone (no such anchor)']);
    expect([...anchors(page)]).toEqual(['title', 'what-the-hook-runs-memctx-index---staged', 'merging-memorymd-the-merge-driver', 'notes', 'notes-1', 'rule-x']);
  });
});

describe('README.md and docs/', () => {
  it('README.md is at most 30 KB and opens with a table of contents whose links resolve', () => {
    const readme = read('README.md');
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(30_000);
    const contents = /\n## Contents\n\n((?:- .*\n)+)/.exec(readme);
    expect(contents, 'a "## Contents" list').not.toBeNull();
    const targets = [...contents![1].matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]);
    expect(targets.length).toBeGreaterThanOrEqual(8);
    const have = anchors(readme);
    expect(targets.filter((t) => !have.has(t))).toEqual([]);
    // The first screen: what it is, install, the two quick-start commands, Claude Code in one command.
    expect(readme.indexOf('## Contents')).toBeGreaterThan(readme.indexOf('memctx init --agent claude '));
    expect(readme.indexOf('npm test')).toBeLessThan(readme.indexOf('## Install'));
  });

  it('every relative link in README.md and docs/ leads to a file and anchor that exist', () => {
    const pages = docPages(REPO);
    expect(pages).toContain('docs/README.md');
    // The rule's own description (src/lint/rules/, copied by scripts/rule-docs.mjs) shows a memory link as an example.
    const example = 'docs/rules/content/broken-reference.md:3: y.md (no such file)';
    expect(pages.flatMap((page) => brokenLinks(REPO, page, read)).filter((broken) => broken !== example)).toEqual([]);
  });

  it('docs/README.md links every page under docs/ except the rule pages (they have docs/rules/)', () => {
    const index = read('docs/README.md');
    const linked = new Set([...prose(index).matchAll(/\]\(([^()#\s]+)/g)].map((m) => `docs/${m[1]}`));
    expect(docPages(REPO).filter((page) => page.startsWith('docs/') && !page.startsWith('docs/rules/') && page !== 'docs/README.md' && !linked.has(page))).toEqual([]);
  });

  it("docs/README.md's command table names every command that registers one, with the page it is on", () => {
    const table = read('docs/README.md').split('## Topics')[0];
    const commands = readdirSync(join(REPO, 'src', 'commands')).filter((name) => existsSync(join(REPO, 'src', 'commands', name, 'cli.ts')));
    expect(commands.length).toBeGreaterThan(20);
    expect(commands.filter((name) => !new RegExp(`\`(?:memctx )?${name}[\` ]`).test(table))).toEqual([]);
  });

  it('package.json ships docs/, which the README links into', () => {
    expect(JSON.parse(read('package.json')).files).toContain('docs/');
  });
});
