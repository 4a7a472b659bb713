// bundle/render.ts: the three bundle formats, piece by piece (bundle.test.ts packs whole bundles with them).
import { describe, expect, it } from 'vitest';
import { fileText, RENDERERS, showCommand, type SectionId } from '../../../src/kernel/bundle/render.js';
import type { FileScore } from '../../../src/kernel/rank/score.js';
import type { PackFile } from '../../../src/kernel/rank/types.js';
import { mem } from '../../helpers/lint.js';

const file = (path: string, text: string) => mem(path, text) as PackFile;
const score = (extra: Partial<FileScore> = {}): FileScore => ({ path: 'x', relevance: 30, recency: 20, dependency: 10, score: 60, task: 0, reasons: [], ...extra });
const AUTH = file('notes/auth & login.md', '---\nname: Auth <v2>\ndescription: How "tokens" refresh\ntype: project\nkind: decision\n---\nBody.\n');

/** A bundle from a renderer's pieces: header, one index line, one file in full, one description, what was left out; sections sharing a key share one opener and closer. */
function bundle(format: keyof typeof RENDERERS, text: string): string {
  const r = RENDERERS[format];
  const sections: [SectionId, (first: boolean) => string[]][] = [
    ['index', (first) => r.indexLine('- [Auth](auth.md) — tokens', first)],
    ['full', (first) => r.full(AUTH, score({ task: 0.5 }), text, first)],
    ['description', (first) => r.description(AUTH, score({ superseded: 'superseded by new.md' }), first, 'memctx --dir "my mem"')],
  ];
  const out = [r.header({ budget: 900, encoding: 'o200k_base' })];
  sections.forEach(([id, pieces], i) => {
    const opens = i === 0 || r.sectionKey(sections[i - 1][0]) !== r.sectionKey(id);
    const closes = i === sections.length - 1 || r.sectionKey(sections[i + 1][0]) !== r.sectionKey(id);
    out.push(opens ? r.open(id) : '', ...pieces(opens), closes ? r.close(id) : '');
  });
  return [...out, r.leftOut({ files: 1, indexLines: 0 }, 900), r.trailer()].join('');
}

describe('the renderers', () => {
  it('json: one document holding the index, the files and what was left out', () => {
    expect(JSON.parse(bundle('json', 'Body.\n'))).toEqual({
      bundle: 'memctx', encoding: 'o200k_base', budget: 900,
      index: ['- [Auth](auth.md) — tokens'],
      files: [
        { path: 'notes/auth & login.md', name: 'Auth <v2>', type: 'project', kind: 'decision', score: 60, tier: 'full', content: 'Body.\n' },
        { path: 'notes/auth & login.md', name: 'Auth <v2>', type: 'project', kind: 'decision', score: 60, tier: 'description', description: 'How "tokens" refresh', load: "memctx --dir \"my mem\" show 'notes/auth & login.md'", superseded: 'superseded by new.md' },
      ],
      leftOut: { files: 1, indexLines: 0, note: 'Left out to stay within 900 tokens: 1 file summary. List every file with `memctx ls`; load one with `memctx show PATH`.' },
    });
  });

  it('xml: text and attributes escaped', () => {
    const out = bundle('xml', 'a < b && c\n');
    expect(out.startsWith('<memory-bundle encoding="o200k_base" budget="900">\n<index>\n- [Auth](auth.md) — tokens\n</index>\n')).toBe(true);
    expect(out).toContain('<memory path="notes/auth &amp; login.md" name="Auth &lt;v2>" type="project" kind="decision" score="60" tier="full">\na &lt; b &amp;&amp; c\n</memory>\n');
    expect(out).toContain('tier="description" load="memctx --dir &quot;my mem&quot; show \'notes/auth &amp; login.md\'">How "tokens" refresh [superseded: superseded by new.md]</memory>\n');
    expect(out.endsWith('<left-out files="1" index-lines="0">Left out to stay within 900 tokens: 1 file summary. List every file with `memctx ls`; load one with `memctx show PATH`.</left-out>\n</memory-bundle>\n')).toBe(true);
  });

  it('markdown: a fence longer than any the text holds, the score line, a warning above a drifted file', () => {
    const text = 'Run:\n```sh\nmake\n```\n';
    const [head, body, tail] = RENDERERS.markdown.full(AUTH, score({ task: 0.5, drifted: 'src/a.ts changed' }), text, true);
    expect(head).toBe('\n### notes/auth & login.md\n\nproject · decision · task 0.50, score 60 (relevance 30, recency 20, dependency 10, drifted -5)\n\n> ⚠ src/a.ts changed\n\n````markdown\n');
    expect([body, tail]).toEqual([text, '````\n']);
    expect(RENDERERS.markdown.passage(AUTH, { start: 3, end: 3, text: 'one line' }, true)[0]).toBe("\n### `memctx show 'notes/auth & login.md'`, line 3\n\n```markdown\n");
  });
});

describe('passages', () => {
  const piece = { start: 9, end: 11, text: '**Bo:** Hi.\n\n**Al:** Hello.' };
  const SESSION = file('sessions/s1.md', '---\nname: S1\nupdated: 2023-05-08T13:56:00Z\n---\n\nBody.\n');
  const CREATED = file('notes/b.md', '---\nname: B\ncreated: 2024-01-31\n---\nBody.\n');
  const COMMITTED = { ...AUTH, committedMs: Date.parse('2025-03-04T05:06:07Z') };

  it('markdown: under the command that loads the whole file, its range and the day of its file (updated, created or last commit; not its mtime)', () => {
    const head = (f: PackFile) => RENDERERS.markdown.passage(f, piece, false)[0];
    expect(head(SESSION)).toBe('\n### `memctx show sessions/s1.md`, lines 9-11 (updated 2023-05-08)\n\n```markdown\n');
    expect(head(CREATED)).toBe('\n### `memctx show notes/b.md`, lines 9-11 (created 2024-01-31)\n\n```markdown\n');
    expect(head(COMMITTED)).toContain(', lines 9-11 (committed 2025-03-04)\n');
    expect(head(AUTH)).toContain(', lines 9-11\n');
    expect(RENDERERS.markdown.passage(SESSION, piece, false, 'memctx --dir m')).toEqual(['\n### `memctx --dir m show sessions/s1.md`, lines 9-11 (updated 2023-05-08)\n\n```markdown\n', `${piece.text}\n`, '```\n']);
  });

  it('xml and json: the day as an attribute or key named by where it comes from', () => {
    expect(RENDERERS.xml.passage(SESSION, piece, false)[0]).toBe('<passage path="sessions/s1.md" lines="9-11" updated="2023-05-08" load="memctx show sessions/s1.md">\n');
    expect(RENDERERS.xml.passage(AUTH, piece, false)[0]).toBe('<passage path="notes/auth &amp; login.md" lines="9-11" load="memctx show \'notes/auth &amp; login.md\'">\n');
    expect(JSON.parse(RENDERERS.json.passage(CREATED, piece, true)[0])).toEqual({ path: 'notes/b.md', tier: 'passage', lines: [9, 11], created: '2024-01-31', load: 'memctx show notes/b.md', content: `${piece.text}\n` });
    expect(JSON.parse(RENDERERS.json.passage(COMMITTED, piece, true)[0])).toMatchObject({ committed: '2025-03-04' });
  });
});

describe('fullTextBytes', () => {
  const bytes = (parts: string[]) => Buffer.byteLength(parts.join(''), 'utf8');
  const TEXTS = ['', 'plain\n', 'a ``` fence and a ```` longer one\n', 'Tom & <Jerry> "quoted" \\ back\n', 'caf\u00e9 \u6f22\u5b57 \ud83d\ude00\ttab\n', '\u241b[31m red \u0007 bell\n'];

  it.each(Object.keys(RENDERERS) as (keyof typeof RENDERERS)[])('%s: what a text adds to any file\'s full piece, with any score', (format) => {
    const r = RENDERERS[format];
    const files = [AUTH, file('a b/`odd`.md', 'x\n')];
    const scores = [score(), score({ task: 0.5, drifted: 'src/a.ts changed' })];
    const rows = files.flatMap((f) => scores.flatMap((s) => TEXTS.map((text) => bytes(r.full(f, s, text, false)) - bytes(r.full(f, s, '', false)))));
    expect(rows).toEqual(Array.from({ length: files.length * scores.length }, () => TEXTS.map((text) => r.fullTextBytes(text))).flat());
    // Not the text's bytes alone: its fence, escapes or quoting count too.
    expect(TEXTS.filter((text) => r.fullTextBytes(text) !== Buffer.byteLength(text, 'utf8')).length).toBeGreaterThan(0);
  });

});

describe('fileText and showCommand', () => {
  it('the file as on disk without its BOM, LF line endings, one final newline', () => {
    expect(fileText(mem('a.md', '\uFEFF---\r\nname: A\r\n---\r\nBody'))).toBe('---\nname: A\n---\nBody\n');
    expect(fileText(mem('b.md', 'No frontmatter.\n'))).toBe('No frontmatter.\n');
  });

  it('a path quoted for the shell only when it needs it', () => {
    expect([showCommand('a.md'), showCommand('my notes/a.md', 'memctx --claude')]).toEqual(['memctx show a.md', "memctx --claude show 'my notes/a.md'"]);
  });
});
