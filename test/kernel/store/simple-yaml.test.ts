import fc from 'fast-check';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseSimpleYaml } from '../../../src/kernel/store/simple-yaml.js';

/** What the reference parser makes of a block: `yaml`'s parse with its default (1.2 core) schema. */
function reference(src: string): unknown {
  return parse(src) ?? {};
}

const TRICKY = [
  '0', '-0', '+1', '-1', '007', '1_000', '1e3', '1E-2', '-1.5e-3', '1.', '.5', '+.5', '-.5', '12345678901234567890', '1e400',
  '0x1F', '0X1f', '0o7', '0O7', '0b1', '.inf', '-.Inf', '.nan', '.NaN',
  '2026-03-25', '2026-03-25T10:00:00Z', '2026-03-25 10:00', '10:30', '1:2:3',
  'true', 'True', 'TRUE', 'false', 'False', 'yes', 'no', 'on', 'off', 'y', 'n',
  'null', 'Null', 'NULL', '~', 'nil',
  'café', '日本語', '😀 emoji', 'x\u00a0y', '\u3000x', 'x\u3000', '\u2000x', 'a\u200bb', 'x\u0085y', 'x\u2028y', '\ufeffx',
  'x  ', '  x', 'x \t', 'a:b', 'a: b', 'x:', 'http://example.com/a?b=c', 'a :b',
  '#', 'a #b', 'a#b', '# c',
  '"quoted"', "'single'", "it's", 'say "hi"',
  '[a, b]', '[1, two, 3.5]', '[]', '[ ]', '[a,b]', '[a, [b]]', '[a, b,]', '[a, , b]', '[true, null, ~, 0x1F]', '[a: b]', '[a:b]', '[x #y]', '[\u3000]', '[x\u3000, y]', '[a] b',
  '{a: 1}', '{}', '-', '- x', '? x', '&a x', '*a', '!t x', '!!str 1', '|', '>', '%x', '@x', '`x`', 'x,y', 'a - b', '(x', '/x', '_x',
];

const KEYS = ['name', 'description', 'type', 'updated', 'tags', 'importance', 'a_b', 'x-y', 'null', 'Null', 'NULL', 'true', 'True', 'FALSE', 'on', 'y', '__proto__', 'constructor', 'toString'];

const scalar = fc.oneof(
  fc.constantFrom(...TRICKY),
  fc.tuple(fc.constantFrom(...TRICKY), fc.constantFrom('', ' ', ', ', ':', ' #', '-'), fc.constantFrom(...TRICKY)).map(([a, s, b]) => a + s + b),
  fc.string({ unit: fc.constantFrom('a', 'Z', '0', '9', ' ', ':', '#', ',', '-', '.', '+', '[', ']', '{', '"', "'", '\t', 'é', '\u3000', '\u00a0', '😀') }),
  fc.string({ unit: 'grapheme', maxLength: 8 }),
);

const key = fc.oneof(fc.constantFrom(...KEYS), fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_-]{0,8}$/));

const line = fc.oneof(
  { weight: 8, arbitrary: fc.tuple(key, scalar).map(([k, v]) => `${k}: ${v}`) },
  { weight: 1, arbitrary: fc.tuple(key, scalar).map(([k, v]) => `${k}:${v}`) },
  { weight: 1, arbitrary: fc.constantFrom('', '# a comment', '  # indented comment', '  - item', '  nested: 1', '...', '---') },
);

describe('parseSimpleYaml agrees with the yaml package', () => {
  it('on random flat key: value blocks built from tricky scalars', () => {
    let answered = 0;
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 6 }), (lines) => {
        const src = lines.join('\n');
        const fast = parseSimpleYaml(src);
        if (fast === undefined) return;
        answered++;
        let expected: unknown;
        try {
          expected = reference(src);
        } catch (err) {
          throw new Error(`parseSimpleYaml answered ${JSON.stringify(fast)} for a block yaml refuses (${(err as Error).message.split('\n')[0]}): ${JSON.stringify(src)}`);
        }
        expect(fast).toEqual(expected);
      }),
      { numRuns: Number(process.env.MEMCTX_FC_RUNS ?? 3000) },
    );
    // The property is not vacuous: the fast path answers a good share of the blocks.
    expect(answered).toBeGreaterThan(100);
  });

  it.each([
    ['null: x'], ['Null: x'], ['NULL: x'], ['True: x'], ['FALSE: x'], ['~: x'],
    ['a: x\u3000'], ['a: \u3000x'], ['a: [x\u3000, y]'], ['a: [\u3000]'], ['a: \u2000x'],
  ])('defers or agrees on %j', (src) => {
    const fast = parseSimpleYaml(src);
    if (fast !== undefined) expect(fast).toEqual(reference(src));
  });

  it('answers the common shapes itself', () => {
    expect(parseSimpleYaml('name: Auth\ndescription: Backend auth status\ntype: project\nimportance: 8\ntags: [auth, security]\nupdated: 2026-11-21\n# note\npinned: true')).toEqual({
      name: 'Auth', description: 'Backend auth status', type: 'project', importance: 8, tags: ['auth', 'security'], updated: '2026-11-21', pinned: true,
    });
  });

  it('leaves __proto__, duplicates and nesting to the full parser', () => {
    expect(parseSimpleYaml('__proto__: x')).toBeUndefined();
    expect(parseSimpleYaml('a: 1\na: 2')).toBeUndefined();
    expect(parseSimpleYaml('metadata:\n  type: user')).toBeUndefined();
  });
});
