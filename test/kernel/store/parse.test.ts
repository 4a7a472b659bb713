import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeText } from '../../../src/kernel/store/decode.js';
import { parseMemoryText, ParseFailure } from '../../../src/kernel/store/parse.js';
import { FIXTURES, tempDir } from '../../helpers/cli.js';

const STAT = { mtimeMs: 0, size: 0 };

function parseFixture(rel: string) {
  const bytes = readFileSync(join(FIXTURES, rel));
  return parseMemoryText(rel.split('/').slice(1).join('/'), decodeText(bytes), { mtimeMs: 0, size: bytes.length });
}

function failure(rel: string): ParseFailure {
  try {
    parseFixture(rel);
  } catch (err) {
    expect(err).toBeInstanceOf(ParseFailure);
    return err as ParseFailure;
  }
  throw new Error(`${rel} parsed without an error`);
}

describe('parseMemoryText: the two Claude Code shapes', () => {
  it('reads top-level name, description and type', () => {
    const file = parseFixture('claude-memory/feedback_testing.md');
    expect(file.name).toBe('Integration tests hit a real database');
    expect(file.description).toBe('Never mock the database in integration tests');
    expect(file.type).toBe('feedback');
    expect(file.format).toEqual({ bom: false, eol: '\n', dateKey: 'updated' });
    expect(file.bodyLine).toBe(6);
  });

  it('reads kebab-case name, metadata.type, modified and [[links]]', () => {
    const file = parseFixture('claude-memory/db-migration-plan.md');
    expect(file.name).toBe('db-migration-plan');
    expect(file.type).toBe('project');
    expect(file.updated).toBe('2026-03-02T10:15:00.000Z');
    expect(file.format.dateKey).toBe('modified');
    expect(Object.keys(file.data)).toEqual(['name', 'description', 'metadata', 'modified']);
    expect(file.data.metadata).toEqual({ type: 'project', confidence: 'high' });
    expect(file.links).toEqual([
      { kind: 'markdown', target: 'project_release-freeze.md', line: 12 },
      { kind: 'wiki', target: 'api-conventions', line: 14 },
    ]);
  });

  it('reads related:, relative Markdown links and keeps unknown keys in order', () => {
    const file = parseFixture('seed-memory/project_auth.md');
    expect(Object.keys(file.data)).toEqual(['name', 'description', 'type', 'kind', 'importance', 'created', 'updated', 'tags', 'related']);
    expect(file.kind).toBe('decision');
    expect(file.importance).toBe(8);
    expect(file.tags).toEqual(['auth', 'security']);
    expect(file.links).toEqual([
      { kind: 'related', target: 'project_db.md' },
      { kind: 'markdown', target: 'tasks/auth-refactor/notes.md', line: 17 },
    ]);
    const notes = parseFixture('seed-memory/tasks/auth-refactor/notes.md');
    expect(notes.links).toEqual([{ kind: 'markdown', target: 'project_auth.md', line: 10 }]);
  });
});

describe('parseMemoryText: valid but unusual files', () => {
  it('parses a UTF-8 BOM file and remembers the BOM', () => {
    const file = parseFixture('broken/bom.md');
    expect(file.name).toBe('Saved with a BOM');
    expect(file.type).toBe('user');
    expect(file.format.bom).toBe(true);
    expect(file.body).toBe('\nThis file starts with EF BB BF and is still valid.\n');
  });

  it('parses a CRLF file and remembers the line endings', () => {
    const file = parseFixture('broken/crlf.md');
    expect(file.name).toBe('Saved with CRLF');
    expect(file.type).toBe('reference');
    expect(file.updated).toBe('2026-11-01');
    expect(file.format.eol).toBe('\r\n');
    expect(file.body).toBe('\nEvery line of this file ends with CR LF.\n');
  });

  it('takes the name of an empty file from its file name, with no type', () => {
    const file = parseFixture('broken/empty.md');
    expect(file).toMatchObject({ name: 'empty', description: '', type: undefined, hasFrontmatter: false, body: '', data: {} });
  });

  it('takes the name of a file without frontmatter from its file name', () => {
    const file = parseFixture('broken/no_frontmatter.md');
    expect(file).toMatchObject({ name: 'no_frontmatter', description: '', type: undefined, hasFrontmatter: false, bodyLine: 1 });
    expect(file.body).toBe(readFileSync(join(FIXTURES, 'broken/no_frontmatter.md'), 'utf8'));
  });

  it('keeps a body that contains a --- horizontal rule', () => {
    const file = parseMemoryText('hr.md', '---\nname: a\n---\nbody\n---\nmore\n', STAT);
    expect(file.data).toEqual({ name: 'a' });
    expect(file.body).toBe('body\n---\nmore\n');
  });

  it('ignores links inside fenced code and external links', () => {
    const body = 'See [a](a.md) and [web](https://x.org/y.md).\n```\n[b](b.md) [[c]]\n```\n[[d]]\n';
    const file = parseMemoryText('dir/x.md', `---\nname: x\n---\n${body}`, STAT);
    expect(file.links).toEqual([
      { kind: 'markdown', target: 'dir/a.md', line: 4 },
      { kind: 'wiki', target: 'd', line: 8 },
    ]);
  });

  it('drops links that climb out of the memory directory, and resolves those that stay in it', () => {
    const body = '[up](../sibling.md) [out](../../outside.md) [in](./here.md)\n';
    const file = parseMemoryText('dir/x.md', `---\nname: x\nrelated: [../escape.md, dir/ok.md]\n---\n${body}`, STAT);
    expect(file.links).toEqual([
      { kind: 'related', target: 'dir/ok.md' },
      { kind: 'markdown', target: 'sibling.md', line: 5 },
      { kind: 'markdown', target: 'dir/here.md', line: 5 },
    ]);
  });

  it('does not run YAML tags such as !!js/function', () => {
    const file = parseMemoryText('t.md', '---\nname: !!js/function "function () { return 1 }"\n---\n', STAT);
    expect(file.name).toBe('function () { return 1 }');
  });
});

describe('parseMemoryText: broken files', () => {
  const marker = join(tempDir('memctx-js-'), 'JS_FRONTMATTER_RAN');
  afterEach(() => {
    delete (globalThis as Record<string, unknown>).__memctxFrontmatterRan;
    rmSync(marker, { force: true });
  });

  it('names the line of malformed YAML', () => {
    const err = failure('broken/malformed_yaml.md');
    expect(err.line).toBe(4);
    expect(err.message).toMatch(/^invalid YAML: /);
  });

  it('never evaluates ---js frontmatter', () => {
    process.env.MEMCTX_JS_MARKER = marker;
    try {
      const err = failure('broken/js_frontmatter.md');
      expect(err.message).toBe('`---js` (JavaScript) frontmatter is never evaluated');
      expect(err.line).toBe(1);
    } finally {
      delete process.env.MEMCTX_JS_MARKER;
    }
    expect(existsSync(marker)).toBe(false);
    expect((globalThis as Record<string, unknown>).__memctxFrontmatterRan).toBeUndefined();
  });

  it('the ---js fixture is live: gray-matter with its default engines runs it', async () => {
    const { default: matter } = await import('gray-matter');
    process.env.MEMCTX_JS_MARKER = marker;
    try {
      matter(readFileSync(join(FIXTURES, 'broken/js_frontmatter.md'), 'utf8'), {});
    } finally {
      delete process.env.MEMCTX_JS_MARKER;
    }
    expect(existsSync(marker)).toBe(true);
    expect((globalThis as Record<string, unknown>).__memctxFrontmatterRan).toBe(true);
  });

  it('never evaluates ---javascript frontmatter (its code would throw)', () => {
    const err = failure('broken/javascript_frontmatter.md');
    expect(err.message).toBe('`---javascript` (JavaScript) frontmatter is never evaluated');
    expect((globalThis as Record<string, unknown>).__memctxFrontmatterRan).toBeUndefined();
  });

  it('refuses other frontmatter languages without running them', () => {
    for (const language of ['json', 'coffee', 'toml']) {
      expect(() => parseMemoryText('x.md', `---${language}\n{}\n---\n`, STAT)).toThrow(`unsupported frontmatter language \`${language}\``);
    }
    expect(() => parseMemoryText('x.md', '--- JS\n{}\n---\n', STAT)).toThrow('never evaluated');
  });

  it('refuses a YAML alias bomb', () => {
    const err = failure('broken/alias_bomb.md');
    expect(err.message).toMatch(/alias/i);
    expect(err.message.length).toBeLessThan(200);
  });

  it('reports an alias to a missing anchor as such, with its line', () => {
    const err = failure('broken/unknown_alias.md');
    expect(err.message).toMatch(/nowhere/);
    expect(err.message).not.toMatch(/bomb/);
    expect(err.line).toBe(3);
  });

  it('refuses a __proto__ key, and Object.prototype stays clean', () => {
    const err = failure('broken/proto_key.md');
    expect(err.message).toBe('the key `__proto__` is not allowed');
    expect(err.line).toBe(5);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    for (const src of ['---\n{__proto__: {polluted: 1}}\n---\n', '---\n"__proto__": 1\n---\n', '---\nmetadata:\n  __proto__: {polluted: 1}\n---\n']) {
      expect(() => parseMemoryText('p.md', src, STAT)).toThrow('`__proto__`');
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses a __proto__ key reached through an alias', () => {
    const src = '---\nname: c\na: &p __proto__\n*p : {polluted: 1}\n---\n';
    expect(() => parseMemoryText('p.md', src, STAT)).toThrow('the key `__proto__` is not allowed');
  });

  it('refuses an alias inside the value it refers to (circular data)', () => {
    expect(() => parseMemoryText('c.md', '---\nname: c\na: &x [1, *x]\n---\n', STAT)).toThrow('circular reference');
  });

  it('keeps a few harmless aliases', () => {
    const file = parseMemoryText('a.md', '---\nname: a\ntags: &t [x, y]\nmetadata:\n  tags: *t\n---\n', STAT);
    expect(file.data.metadata).toEqual({ tags: ['x', 'y'] });
  });

  it('says where a YAML error is only once (no "at line N, column M" in the message)', () => {
    const err = failure('broken/malformed_yaml.md');
    expect(err.message).toBe('invalid YAML: Nested mappings are not allowed in compact mappings');
  });

  it('refuses unterminated frontmatter at line 1', () => {
    const err = failure('broken/unterminated.md');
    expect(err.message).toBe('frontmatter opened on line 1 is never closed');
    expect(err.line).toBe(1);
  });

  it('refuses frontmatter that is a list', () => {
    const err = failure('broken/list_frontmatter.md');
    expect(err.message).toBe('frontmatter must be a mapping of `key: value` lines');
  });

  it('refuses duplicate keys at the second occurrence', () => {
    const err = failure('broken/duplicate_keys.md');
    expect(err.message).toMatch(/unique/);
    expect(err.line).toBe(5);
  });

  it('gives file line numbers for BOM and CRLF files too', () => {
    for (const text of ['\uFEFF---\nname: a\ntype: a: b\n---\n', '---\r\nname: a\r\ntype: a: b\r\n---\r\n']) {
      expect(() => parseMemoryText('x.md', text, STAT)).toThrow(ParseFailure);
      try {
        parseMemoryText('x.md', text, STAT);
      } catch (err) {
        expect((err as ParseFailure).line).toBe(3);
      }
    }
  });
});
