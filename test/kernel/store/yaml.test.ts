import { describe, expect, it } from 'vitest';
import { parseFrontmatterYaml, parseYamlSafely, YamlFailure } from '../../../src/kernel/store/yaml.js';

/** The YamlFailure `fn` throws, as plain fields. */
function failure(fn: () => unknown): { message: string; line: number | undefined; hint?: string } {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(YamlFailure);
    const { message, line, hint } = err as YamlFailure;
    return { message, line, hint };
  }
  throw new Error('no YamlFailure thrown');
}

describe('parseYamlSafely', () => {
  it('parses with the core schema and lets aliases refer to earlier anchors', () => {
    expect(parseYamlSafely('a: &x [1, 2]\nb: *x\nc: yes\nd: 0o17\n').data).toEqual({ a: [1, 2], b: [1, 2], c: 'yes', d: 15 });
  });

  it('refuses a __proto__ key, written or reached through an alias, with its line', () => {
    expect(failure(() => parseYamlSafely('a: 1\n__proto__:\n  polluted: true\n'))).toEqual({ message: 'the key `__proto__` is not allowed', line: 2, hint: 'rename or remove that key' });
    expect(failure(() => parseYamlSafely('k: &p __proto__\nm:\n  *p : 1\n'))).toMatchObject({ message: 'the key `__proto__` is not allowed', line: 3 });
  });

  it('refuses an alias with no anchor before it, and one inside the value it names', () => {
    expect(failure(() => parseYamlSafely('a: *later\nb: &later 1\n'))).toMatchObject({ message: 'the alias *later has no anchor &later before it', line: 1 });
    expect(failure(() => parseYamlSafely('a: &loop\n  b: *loop\n'))).toMatchObject({ message: 'the alias *loop refers to a value that contains it (a circular reference)', line: 2, hint: 'remove the alias' });
  });

  it('refuses an alias bomb at the first alias', () => {
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]', ...'bcdefgh'.split('').map((k, i) => `${k}: &${k} [${Array(10).fill(`*${'abcdefgh'[i]}`).join(', ')}]`)].join('\n');
    expect(failure(() => parseYamlSafely(bomb))).toEqual({ message: 'YAML aliases expand too far (a possible alias bomb); refused', line: 2, hint: 'remove the &anchors and *aliases' });
  });

  it('names the format and the line of a syntax error, and refuses duplicate keys', () => {
    // An unclosed flow sequence is found where the text ends, on line 3.
    expect(failure(() => parseYamlSafely('a: 1\nb: [1, 2\n', { name: 'config' }))).toEqual({ message: 'invalid config: Flow sequence in block collection must be sufficiently indented and end with a ]', line: 3, hint: 'fix the config syntax' });
    expect(failure(() => parseYamlSafely('a: 1\na: 2\n'))).toMatchObject({ message: 'invalid YAML: Map keys must be unique', line: 2 });
  });
});

describe('parseFrontmatterYaml', () => {
  it('reads simple and full YAML to a mapping; an empty block is an empty mapping', () => {
    expect(parseFrontmatterYaml('name: Auth\ntags: [a, b]\n')).toEqual({ name: 'Auth', tags: ['a', 'b'] });
    expect(parseFrontmatterYaml('name: &n Auth\nalias: *n\nnested:\n  k: v\n')).toEqual({ name: 'Auth', alias: 'Auth', nested: { k: 'v' } });
    expect(parseFrontmatterYaml('')).toEqual({});
    expect(parseFrontmatterYaml('# only a comment\n')).toEqual({});
  });

  it('refuses frontmatter that is not a mapping', () => {
    expect(failure(() => parseFrontmatterYaml('- a\n- b\n'))).toEqual({ message: 'frontmatter must be a mapping of `key: value` lines', line: 1, hint: 'write the frontmatter as key: value pairs' });
    expect(failure(() => parseFrontmatterYaml('just text'))).toMatchObject({ message: 'frontmatter must be a mapping of `key: value` lines' });
  });
});
