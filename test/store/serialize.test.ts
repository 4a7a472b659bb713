import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseMemoryText } from '../../src/store/parse.js';
import { assembleFile, newFrontmatter, serializeMemoryFile, setFrontmatterKeys } from '../../src/store/serialize.js';

const STAMP = '2026-11-21T15:30:12Z';
const STAT = { mtimeMs: 0, size: 0 };

describe('setFrontmatterKeys', () => {
  it('replaces a one-line key where it stands and keeps everything else', () => {
    const fm = 'name: a\n# why: a comment\nupdated: 2026-01-01 # last review\nzeta: [1, 2]\nmetadata:\n  type: user';
    expect(setFrontmatterKeys(fm, { updated: STAMP })).toBe(`name: a\n# why: a comment\nupdated: ${STAMP} # last review\nzeta: [1, 2]\nmetadata:\n  type: user`);
  });

  it('appends a missing key at the end', () => {
    expect(setFrontmatterKeys('name: a\ntype: user', { updated: STAMP })).toBe(`name: a\ntype: user\nupdated: ${STAMP}`);
    expect(setFrontmatterKeys('', { updated: STAMP })).toBe(`updated: ${STAMP}`);
  });

  it('finds quoted keys and `key :` instead of adding a duplicate', () => {
    for (const [fm, want] of [
      ['name: a\n"updated": 2020-01-01', `name: a\n"updated": ${STAMP}`],
      ["name: a\n'updated': x", `name: a\n'updated': ${STAMP}`],
      ['name: a\nupdated : x', `name: a\nupdated : ${STAMP}`],
    ]) {
      const out = setFrontmatterKeys(fm, { updated: STAMP });
      expect(out).toBe(want);
      expect(parse(out)).toMatchObject({ updated: STAMP });
    }
  });

  it('does not mistake text inside a block scalar for a key', () => {
    const out = setFrontmatterKeys('name: a\ndescription: >\n  updated: no\nc: 1', { updated: STAMP });
    expect(out).toBe(`name: a\ndescription: >\n  updated: no\nc: 1\nupdated: ${STAMP}`);
  });

  it('keeps a flow-mapping frontmatter valid', () => {
    const out = setFrontmatterKeys('{name: a}', { updated: STAMP });
    expect(parse(out)).toEqual({ name: 'a', updated: STAMP });
  });

  it('replaces a multi-line value through the document model', () => {
    const out = setFrontmatterKeys('name: a\nupdated: [a,\n  b]\nz: 1', { updated: STAMP });
    expect(parse(out)).toEqual({ name: 'a', updated: STAMP, z: 1 });
    expect(Object.keys(parse(out))).toEqual(['name', 'updated', 'z']);
  });

  it('quotes values YAML would otherwise read as something else', () => {
    expect(setFrontmatterKeys('name: a', { note: '123', flag: 'yes: no' })).toBe('name: a\nnote: "123"\nflag: "yes: no"');
  });
});

describe('newFrontmatter', () => {
  it('writes a block mapping with flow lists, in the given order, skipping undefined', () => {
    const fm = newFrontmatter({ name: 'User Preferences', description: 'Editor: settings #1', type: 'user', kind: undefined, tags: ['vim', 'dark mode'], importance: 7, created: STAMP, updated: STAMP });
    expect(fm).toBe(`name: User Preferences\ndescription: "Editor: settings #1"\ntype: user\ntags: [vim, dark mode]\nimportance: 7\ncreated: ${STAMP}\nupdated: ${STAMP}`);
    expect(parse(fm)).toEqual({ name: 'User Preferences', description: 'Editor: settings #1', type: 'user', tags: ['vim', 'dark mode'], importance: 7, created: STAMP, updated: STAMP });
  });

  it('quotes strings that look like other types', () => {
    expect(parse(newFrontmatter({ name: 'true', description: '007', type: 'null' }))).toEqual({ name: 'true', description: '007', type: 'null' });
  });
});

describe('assembleFile and serializeMemoryFile', () => {
  it('puts the BOM and CRLF back', () => {
    expect(assembleFile('name: a', 'body\n', { bom: true, eol: '\r\n' })).toBe('\uFEFF---\r\nname: a\r\n---\r\nbody\r\n');
    expect(assembleFile(undefined, 'x\n', { bom: false, eol: '\n' })).toBe('x\n');
  });

  it('round-trips a file byte for byte apart from the changed key', () => {
    const text = '\uFEFF---\r\nname: a\r\n# keep me\r\nupdated: 2026-01-01\r\nmodified_by: me\r\n---\r\n\r\nBody\r\n';
    const file = parseMemoryText('a.md', text, STAT);
    expect(serializeMemoryFile(file, { updated: STAMP })).toBe(text.replace('2026-01-01', STAMP));
  });

  it('sets `modified` in files that use it', () => {
    const file = parseMemoryText('k.md', '---\nname: k\nmetadata:\n  type: user\nmodified: 2026-03-02T10:15:00.000Z\n---\nx\n', STAT);
    expect(file.format.dateKey).toBe('modified');
    expect(serializeMemoryFile(file, { [file.format.dateKey]: STAMP })).toBe(`---\nname: k\nmetadata:\n  type: user\nmodified: ${STAMP}\n---\nx\n`);
  });
});
