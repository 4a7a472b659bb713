import { describe, expect, it } from 'vitest';
import { Document, parse, visit } from 'yaml';
import { parseMemoryText } from '../../../src/kernel/store/parse.js';
import { neutralizeControls } from '../../../src/kernel/markdown/escape.js';
import { assembleFile, newFrontmatter, serializeMemoryFile, setFrontmatterKeys, setKeyByYaml } from '../../../src/kernel/store/serialize.js';

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

describe('newFrontmatter without the yaml package', () => {
  /** What the `yaml` package writes for these entries (newFrontmatter's own fallback). */
  const byYaml = (entries: Record<string, unknown>) => {
    const doc = new Document(entries);
    visit(doc, { Seq: (_key, seq) => void (seq.flow = true) });
    return doc.toString({ lineWidth: 0, flowCollectionPadding: false }).replace(/\n$/, '');
  };
  const WORDS = ['null', 'Null', 'NULL', '~', 'true', 'False', 'yes', 'no', 'on', 'off', '1e3', '1E3', '0x1F', '0o17', '.inf', '-.INF', '.NaN', '1_000', '12:30', '1.5', '-3', '+7', '2026-11-25', STAMP, 'Session 2026-11-25 01:40', 'a: b', 'a #b', 'a:', '-a', '- a', '? a', 'a  b', 'a ', ' a', 'é…', '中文', 'x…', 'claude-code', 'SessionEnd', 'DEC-2026-11-25-001', 'a/b (c), d; e+f=g', ''];
  const CHARS = ['a', 'Z', '0', '9', ' ', ' ', ':', '#', '-', '.', ',', '…', "'", '"', '[', ']', '{', '}', '&', '*', '!', '|', '>', '%', '@', '`', '?', '/', '(', ')', '\t', 'é', 'À', 'ÿ', 'ɏ', '×', '÷', '\u00a0', '\u2028', '\u0085', '中', 'e', 'E', '+', '_', '=', ';', '\\', '\n'];

  it('writes every value exactly as the yaml package does', () => {
    let seed = 7;
    const next = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const values: unknown[] = [...WORDS, 0, 5, -3, 1.5, 2 ** 60, true, false, null, ['a', 'b'], []];
    for (let i = 0; i < 3000; i++) values.push(Array.from({ length: 1 + next(12) }, () => CHARS[next(CHARS.length)]).join(''));
    // Controls (U+0085 among the characters) are written visible, by both paths.
    for (const value of values) expect([value, newFrontmatter({ name: 'n', v: value })]).toEqual([value, byYaml({ name: 'n', v: typeof value === 'string' ? neutralizeControls(value) : value })]);
    expect(newFrontmatter({ 'odd key': 'x', 'k:': 1, '-k': 2 })).toBe(byYaml({ 'odd key': 'x', 'k:': 1, '-k': 2 }));
  });

  it("a session file's frontmatter", () => {
    const entries = { name: 'Session 2026-11-25 01:40', description: 'message 0 message 0…', type: 'project', kind: 'session', created: STAMP, updated: STAMP, session_id: 'hot-small', agent: 'claude-code', hook_event: 'SessionEnd', importance: 3, gone: undefined };
    expect(newFrontmatter(entries)).toBe(`name: Session 2026-11-25 01:40\ndescription: message 0 message 0…\ntype: project\nkind: session\ncreated: ${STAMP}\nupdated: ${STAMP}\nsession_id: hot-small\nagent: claude-code\nhook_event: SessionEnd\nimportance: 3`);
    expect(newFrontmatter(entries)).toBe(byYaml({ ...entries, gone: undefined }));
  });
});

describe('setFrontmatterKeys on flat frontmatter without the yaml package', () => {
  const LINES = ['name: a', 'name:   spaced  ', 'description: one two', 'updated: 2026-11-01', 'importance: 5', 'tags: [a, b]', 'pinned: true', '# a comment', '', 'odd: "quoted"', 'x: a: b', 'kind: session', 'status: null', 'y: ~', 'z: 1.5', 'n: 0x1F'];
  const KEYS = ['name', 'updated', 'tags', 'importance', 'status', 'new_key', 'y', 'odd key'];
  const VALUES: unknown[] = [STAMP, 'plain words', 'a: b', '123', 7, true, null, 'x…', ' lead', 'null', ['a'], 1.5];

  it('writes what the YAML document model writes, for every key, value and block', () => {
    let seed = 11;
    const next = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (let i = 0; i < 1500; i++) {
      const lines = Array.from({ length: next(6) }, () => LINES[next(LINES.length)]);
      const text = lines.join('\n') + (next(4) === 0 ? '\n' : '');
      const key = KEYS[next(KEYS.length)];
      const value = VALUES[next(VALUES.length)];
      const outcome = (set: () => string) => {
        try {
          return set();
        } catch (err) {
          return `throws: ${(err as Error).message}`;
        }
      };
      expect([text, key, value, outcome(() => setFrontmatterKeys(text, { [key]: value }))]).toEqual([text, key, value, outcome(() => setKeyByYaml(text, key, value))]);
    }
  });

  it('replaces a value in place, keeping the spacing around it', () => {
    expect(setFrontmatterKeys('name:   spaced  \nupdated: 2026-01-01', { name: 'b', updated: STAMP })).toBe(`name:   b  \nupdated: ${STAMP}`);
  });
});
