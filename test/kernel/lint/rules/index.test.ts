import { describe, expect, it } from 'vitest';
import { renderIndexFile } from '../../../../src/kernel/memindex/merge.js';
import { RULES } from '../../../../src/kernel/lint/rules/index.js';
import { mentionedPaths } from '../../../../src/kernel/lint/rules/content/broken-reference.js';
import { isIsoDate } from '../../../../src/kernel/lint/rules/frontmatter/invalid-date.js';
import type { TokenCounter } from '../../../../src/kernel/tokens/index.js';
import { VALID, doc, lint, lines, mem, NOW } from '../../../helpers/lint.js';

describe('rule list', () => {
  it('has every rule the issue asks for, each with a group/name id, a description and a severity', () => {
    const ids = RULES.map((r) => r.id);
    for (const id of [
      'frontmatter/parse-error', 'frontmatter/required', 'frontmatter/invalid-type', 'frontmatter/invalid-date', 'frontmatter/importance-range',
      'frontmatter/js-engine', 'index/stale', 'index/too-long', 'index/dangling-link', 'index/unlisted', 'content/too-large', 'content/duplicate',
      'content/stale', 'content/ephemeral', 'content/broken-reference', 'session/missing-field', 'session/over-budget', 'security/secret',
    ]) expect(ids).toContain(id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const rule of RULES) {
      expect(rule.id).toMatch(/^[a-z]+\/[a-z-]+$/);
      expect(rule.description.length).toBeGreaterThan(20);
      expect(['error', 'warning']).toContain(rule.defaultSeverity);
    }
    expect(RULES.filter((r) => r.fixable).map((r) => r.id).sort()).toEqual(['frontmatter/missing-updated', 'index/stale', 'index/unlisted']);
  });
});

describe('frontmatter rules', () => {
  it('parse-error and js-engine come from the scan problems, with file, line and hint', async () => {
    const problems = [
      { path: 'bad.md', line: 3, message: 'invalid YAML: x', hint: 'fix the YAML syntax' },
      { path: 'js.md', line: 1, message: '`---js` (JavaScript) frontmatter is never evaluated', hint: 'rewrite the frontmatter as YAML (a plain `---` line)' },
      { path: 'bomb.md', message: 'YAML aliases expand too far (a possible alias bomb); refused', hint: 'remove the &anchors and *aliases' },
    ];
    const result = await lint(['frontmatter/parse-error', 'frontmatter/js-engine'], { problems });
    expect(lines(result)).toEqual([
      'bad.md:3:1 frontmatter/parse-error invalid YAML: x; fix the YAML syntax',
      'bomb.md:-:- frontmatter/parse-error YAML aliases expand too far (a possible alias bomb); refused; remove the &anchors and *aliases',
      'js.md:1:1 frontmatter/js-engine `---js` (JavaScript) frontmatter is never evaluated; rewrite the frontmatter as YAML (a plain `---` line)',
    ]);
    expect(result.errorCount).toBe(3);
  });

  it('required: name, description and type (metadata.type counts), no frontmatter, name length', async () => {
    const files = [
      mem('ok.md', doc(VALID)),
      mem('claude.md', '---\nname: auth-notes\ndescription: d\nmetadata:\n  type: project\n---\nx\n'),
      mem('none.md', 'just text\n'),
      mem('partial.md', doc({ name: 'n' })),
      mem('long.md', doc({ ...VALID, name: 'x'.repeat(101) })),
    ];
    expect(lines(await lint(['frontmatter/required'], { files }))).toEqual([
      'long.md:2:1 frontmatter/required "name" is 101 characters; at most 100',
      'none.md:1:1 frontmatter/required no frontmatter: add a `---` block with name, description and type',
      'partial.md:1:1 frontmatter/required missing required field "description" (one line, shown in MEMORY.md)',
      'partial.md:1:1 frontmatter/required missing required field "type" (user | feedback | project | reference)',
    ]);
  });

  it('invalid-type uses the configured type list', async () => {
    const files = [mem('a.md', doc({ ...VALID, type: 'runbook' })), mem('b.md', doc(VALID))];
    expect(lines(await lint(['frontmatter/invalid-type'], { files }))).toEqual([
      'a.md:4:1 frontmatter/invalid-type invalid type "runbook"; expected one of user, feedback, project, reference',
    ]);
    const config = (await import('../../../helpers/lint.js')).only('frontmatter/invalid-type');
    config.types = ['project', 'runbook'];
    expect(lines(await lint(config, { files }))).toEqual([]);
  });

  it('invalid-date: calendar dates and date-times only', async () => {
    expect(['2026-11-21', '2026-11-21T15:30:12Z', '2026-11-21T15:30', '2026-11-21 15:30:12+01:00', '2024-02-29', '2026-11-21T15:30:12.123Z'].every(isIsoDate)).toBe(true);
    expect(['2026-02-30', '2025-02-29', '2026-13-01', '21/11/2026', 'yesterday', '2026-11-21T25:00', '2026-1-2', ''].some(isIsoDate)).toBe(false);
    const files = [mem('a.md', doc({ ...VALID, updated: '2026-02-30', created: 'last week', expires: 2027 })), mem('b.md', doc(VALID))];
    expect(lines(await lint(['frontmatter/invalid-date'], { files }))).toEqual([
      'a.md:5:1 frontmatter/invalid-date "updated" is not an ISO date: "2026-02-30"; write it as YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ',
      'a.md:6:1 frontmatter/invalid-date "created" is not an ISO date: "last week"; write it as YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ',
      'a.md:7:1 frontmatter/invalid-date "expires" is not an ISO date: 2027; write it as YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ',
    ]);
  });

  it('importance-range: whole numbers 1-10', async () => {
    const files = ['0', '11', '2.5', 'high', '"7"', '10', '1'].map((v, i) => mem(`f${i}.md`, doc({ ...VALID, importance: v })));
    expect(lines(await lint(['frontmatter/importance-range'], { files }))).toEqual([
      'f0.md:6:1 frontmatter/importance-range "importance" must be a whole number from 1 to 10 (got 0)',
      'f1.md:6:1 frontmatter/importance-range "importance" must be a whole number from 1 to 10 (got 11)',
      'f2.md:6:1 frontmatter/importance-range "importance" must be a whole number from 1 to 10 (got 2.5)',
      'f3.md:6:1 frontmatter/importance-range "importance" must be a whole number from 1 to 10 (got "high")',
    ]);
  });

  it('invalid-kind: unknown kind and status', async () => {
    const files = [mem('a.md', doc({ ...VALID, kind: 'decison', status: 'done' })), mem('b.md', doc({ ...VALID, kind: 'issue', status: 'open' }))];
    expect(lines(await lint(['frontmatter/invalid-kind'], { files }))).toEqual([
      'a.md:6:1 frontmatter/invalid-kind unknown kind "decison"; expected one of decision, issue, state, learning, session, note',
      'a.md:7:1 frontmatter/invalid-kind unknown status "done"; expected one of open, resolved, superseded (read as resolved; write `resolved`)',
    ]);
  });

  it('missing-updated offers a fix with the file time, in the key the file uses', async () => {
    const { updated: _u, ...noDate } = VALID;
    const mtime = Date.parse('2026-10-01T08:00:00Z');
    const files = [mem('a.md', doc(noDate), mtime), mem('b.md', doc({ ...noDate, modified: '' }), mtime), mem('c.md', doc(VALID)), mem('d.md', 'no frontmatter\n')];
    const result = await lint(['frontmatter/missing-updated'], { files });
    expect(result.findings.map((f) => [f.file, f.fix])).toEqual([
      ['a.md', { type: 'set-date', key: 'updated', value: '2026-10-01T08:00:00Z' }],
      ['b.md', { type: 'set-date', key: 'modified', value: '2026-10-01T08:00:00Z' }],
    ]);
    expect(result.fixableWarningCount).toBe(2);
  });
});

describe('index rules', () => {
  const files = [mem('project_auth.md', doc(VALID)), mem('user_prefs.md', doc({ ...VALID, name: 'Prefs', type: 'user' }))];
  const fresh = renderIndexFile(undefined, files);

  it('stale: silent when MEMORY.md is what `memctx index` writes; fixable otherwise', async () => {
    expect(lines(await lint(['index/stale'], { files, indexText: fresh }))).toEqual([]);
    const old = renderIndexFile(undefined, files.slice(0, 1));
    const result = await lint(['index/stale'], { files, indexText: old });
    expect(lines(result)).toEqual(['MEMORY.md:3:1 index/stale MEMORY.md is out of date (2 lines missing); run `memctx index` (or `memctx lint --fix`)']);
    expect(result.findings[0].fix).toEqual({ type: 'rebuild-index' });
    expect(lines(await lint(['index/stale'], { files }))).toEqual(['MEMORY.md:1:1 index/stale MEMORY.md does not exist; run `memctx index` (or `memctx lint --fix`)']);
  });

  it('stale: broken markers are reported at their line and not fixable', async () => {
    const result = await lint(['index/stale'], { files, indexText: '# Memory\n<!-- memctx:end -->\n<!-- memctx:begin -->\n' });
    expect(result.findings).toHaveLength(1);
    expect(result.findings[0].line).toBe(2);
    expect(result.findings[0].fix).toBeUndefined();
    expect(result.findings[0].message).toContain('comes before');
  });

  it('too-long: lines and bytes over the limits', async () => {
    const long = `${'x\n'.repeat(201)}`;
    expect(lines(await lint(['index/too-long'], { indexText: long }))).toEqual([
      'MEMORY.md:201:1 index/too-long MEMORY.md has 201 lines, over the 200-line limit: agents never see what comes after line 200; shorten the hand-written text or archive memories (`memctx gc`)',
    ]);
    expect(lines(await lint(['index/too-long'], { indexText: 'x\n'.repeat(200) }))).toEqual([]);
    const wide = `${'é'.repeat(12_600)}\n`;
    expect(lines(await lint(['index/too-long'], { indexText: wide }))).toEqual([
      'MEMORY.md:1:1 index/too-long MEMORY.md is 25201 bytes, over the 25000-byte limit; shorten the hand-written text or archive memories (`memctx gc`)',
    ]);
  });

  it('dangling-link: links to missing files, inside and outside the memory directory', async () => {
    const indexText = `${fresh}\nSee [gone](gone.md), [docs](../docs/guide.md), [old](../docs/old.md), [site](https://example.com/x.md) and [sessions](sessions/).\n`;
    const memoryPaths = ['project_auth.md', 'user_prefs.md', 'sessions/s1.md'];
    const result = await lint(['index/dangling-link'], { files, indexText, memoryPaths, repoFiles: ['docs/guide.md', '.memory/project_auth.md'], memoryPrefix: '.memory' });
    const last = indexText.split('\n').length - 1;
    expect(lines(result)).toEqual([
      `MEMORY.md:${last}:5 index/dangling-link link to gone.md, which does not exist; run \`memctx index\` to rebuild the index, or fix the hand-written link`,
      `MEMORY.md:${last}:48 index/dangling-link link to ../docs/old.md, which does not exist; run \`memctx index\` to rebuild the index, or fix the hand-written link`,
    ]);
  });

  it('unlisted: files missing from MEMORY.md; sessions are exempt', async () => {
    const withSession = [...files, mem('sessions/2026-11-20T100000-x.md', doc({ ...VALID, kind: 'session' }))];
    const indexText = renderIndexFile(undefined, files.slice(0, 1));
    const result = await lint(['index/unlisted'], { files: withSession, indexText });
    expect(lines(result)).toEqual(['user_prefs.md:1:1 index/unlisted not listed in MEMORY.md; run `memctx index` (or `memctx lint --fix`)']);
    expect(result.findings[0].fix).toEqual({ type: 'rebuild-index' });
  });

  it('unlisted: a file the index leaves out for size says so and has no fix', async () => {
    const many = Array.from({ length: 300 }, (_, i) => mem(`p${String(i).padStart(3, '0')}.md`, doc({ ...VALID, name: `P${i}`, importance: i === 299 ? 1 : 5 })));
    const indexText = renderIndexFile(undefined, many);
    const result = await lint(['index/unlisted'], { files: many, indexText });
    expect(result.findings.length).toBeGreaterThan(90);
    expect(result.findings.every((f) => f.fix === undefined && f.message.startsWith('not listed in MEMORY.md: the index is at its size limit'))).toBe(true);
    expect(result.findings.map((f) => f.file)).toContain('p299.md');
  });
});

describe('content rules', () => {
  const counter: TokenCounter = { encoding: 'o200k_base', count: (text) => text.split(/\s+/).filter(Boolean).length };

  it('too-large: exact counts over the limit; small files never reach the tokenizer', async () => {
    let loads = 0;
    const tokens = async () => {
      loads++;
      return counter;
    };
    const small = mem('small.md', doc(VALID, 'word '.repeat(100)));
    expect(lines(await lint(['content/too-large'], { files: [small], tokens }))).toEqual([]);
    expect(loads).toBe(0);
    const big = mem('big.md', doc(VALID, 'word '.repeat(2100)));
    expect(lines(await lint(['content/too-large'], { files: [small, big], tokens }))).toEqual([
      'big.md:1:1 content/too-large 2114 tokens, over the 2000-token limit; split it into smaller memory files or summarise it',
    ]);
    expect(loads).toBe(1);
  });

  it('too-large counts with the real tokenizer (o200k_base)', async () => {
    const { loadTokenCounter } = await import('../../../../src/kernel/tokens/index.js');
    const body = 'The quick brown fox jumps over the lazy dog. '.repeat(250);
    const file = mem('fox.md', doc(VALID, body));
    const tokens = await loadTokenCounter();
    const result = await lint(['content/too-large'], { files: [file], tokens });
    const expected = tokens.count(`---\n${file.frontmatter}\n---\n${body}`);
    expect(expected).toBeGreaterThan(2000);
    expect(result.findings[0].message).toBe(`${expected} tokens, over the 2000-token limit; split it into smaller memory files or summarise it`);
  });

  it('too-large counts a file of few characters and many tokens (ꙮ: one character, three bytes, three tokens)', async () => {
    const { loadTokenCounter } = await import('../../../../src/kernel/tokens/index.js');
    const body = 'ꙮ'.repeat(1000);
    const file = mem('eyes.md', doc(VALID, body));
    const tokens = await loadTokenCounter();
    const expected = tokens.count(`---\n${file.frontmatter}\n---\n${body}`);
    expect(file.body.length).toBeLessThan(2000);
    expect(expected).toBeGreaterThan(3000);
    const result = await lint(['content/too-large'], { files: [file], tokens });
    expect(result.findings.map((f) => f.message)).toEqual([`${expected} tokens, over the 2000-token limit; split it into smaller memory files or summarise it`]);
  });

  it('duplicate: near-duplicates at 0.85 name both files; different texts do not match', async () => {
    const text = 'The deploy pipeline runs lint, unit tests and the integration suite before the canary stage. Rollbacks use the previous image tag and never rebuild from source. Secrets come from the vault agent sidecar at start-up.';
    const files = [
      mem('a.md', doc(VALID, text)),
      mem('b.md', doc(VALID, `${text} Also noted.`)),
      mem('c.md', doc(VALID, 'Completely different text about the caching layer, eviction policy and the warm-up job that fills it on deploy.')),
    ];
    const result = await lint(['content/duplicate'], { files });
    expect(result.findings).toHaveLength(1);
    const f = result.findings[0];
    expect(f.file).toBe('b.md');
    expect(f.message).toMatch(/^near-duplicate of a\.md \(similarity 0\.9\d, threshold 0\.85\); merge b\.md into a\.md or remove one$/);
  });

  it('stale: expired, old low-importance decisions, old resolved issues; pinned exempt', async () => {
    const files = [
      mem('expired.md', doc({ ...VALID, expires: '2026-11-01' })),
      mem('decision.md', doc({ ...VALID, kind: 'decision', importance: 5, updated: '2026-08-01' })),
      mem('important.md', doc({ ...VALID, kind: 'decision', importance: 6, updated: '2026-01-01' })),
      mem('recent.md', doc({ ...VALID, kind: 'decision', importance: 3, updated: '2026-09-01' })),
      mem('resolved.md', doc({ ...VALID, kind: 'issue', status: 'resolved', updated: '2026-10-15' })),
      mem('open.md', doc({ ...VALID, kind: 'issue', status: 'open', updated: '2025-01-01' })),
      mem('pinned.md', doc({ ...VALID, expires: '2026-01-01', pinned: 'true' })),
    ];
    expect(lines(await lint(['content/stale'], { files }))).toEqual([
      'decision.md:5:1 content/stale stale: decision of importance 5 (at most 5) last updated 2026-08-01, 112 days ago (over 90); `memctx gc --apply` moves it to archive/',
      'expired.md:6:1 content/stale stale: expired on 2026-11-01; `memctx gc --apply` moves it to archive/',
      'resolved.md:5:1 content/stale stale: resolved issue last updated 2026-10-15, 37 days ago (over 30); `memctx gc --apply` moves it to archive/',
    ]);
  });

  it('ephemeral: test-run timestamps, commit hashes, git history, pasted logs', async () => {
    const body = [
      'Iteration 3 passed at 14:32 after the retry fix.', // 7
      'The fix landed in commit 3f2a9c1d on main.', // 8
      'Author: Jane Doe <jane@example.com>', // 9
      'Merge pull request #42 from org/feature', // 10
      'a1b2c3d Fix auth', // 11
      'e4f5a6b Add tests', // 12
      '```', // 13
      '2026-11-21T10:00:01Z INFO starting', // 14
      '2026-11-21T10:00:02Z INFO listening', // 15
      '2026-11-21T10:00:03Z WARN slow', // 16
      '2026-11-21T10:00:04Z ERROR failed', // 17
      '    at handler (src/server.ts:10:5)', // 18
      '```', // 19
      'Durable: the decade-old accessor stays; color #aabbcc; uuid 123e4567-e89b-12d3-a456-426614174000.', // 20
      'Full sha 0123456789abcdef0123456789abcdef01234567 here.', // 21
    ].join('\n');
    const file = mem('notes.md', doc(VALID, body));
    expect(file.bodyLine).toBe(7);
    expect(lines(await lint(['content/ephemeral'], { files: [file] }))).toEqual([
      'notes.md:7:13 content/ephemeral test-run timestamp "passed at 14:32": ephemeral task state; keep only the durable fact',
      'notes.md:8:26 content/ephemeral commit hash 3f2a9c1…: git history belongs in git (`git log`), not in memory; keep the durable fact',
      'notes.md:9:1 content/ephemeral pasted git history (an `Author:` line of git log); git already keeps it',
      'notes.md:10:1 content/ephemeral pasted git history (a merge record); git already keeps it',
      'notes.md:11:1 content/ephemeral pasted git history (2 lines of `git log --oneline`); git already keeps it',
      'notes.md:14:1 content/ephemeral pasted log output (5 lines); store the conclusion, not the raw output',
      'notes.md:21:10 content/ephemeral commit hash 0123456…: git history belongs in git (`git log`), not in memory; keep the durable fact',
    ]);
  });

  it('broken-reference: finds repository paths that no longer exist', () => {
    expect(mentionedPaths('See src/auth/session.ts:42, `src/cli/` and `package.json`; and/or Node.js/TypeScript.').map((m) => [m.path, m.column, m.bare])).toEqual([
      ['src/auth/session.ts', 5, false],
      ['src/cli/', 30, false],
      ['package.json', 45, true],
    ]);
    expect(mentionedPaths('Visit https://example.com/a/b.ts or www.example.com/x.js, @scope/pkg, /etc/hosts.conf, ~/x/y.ts, $HOME/a.ts')).toEqual([]);
    expect(mentionedPaths('Templates: plans/artifacts/<task-slug>/notes.md, `plans/<slug>/`, src/{a,b}.ts and logs/*.log')).toEqual([]);
  });

  it('broken-reference: checks mentions against the repository and memory links against the memory directory', async () => {
    const body = [
      'Auth lives in src/auth/session.ts and src/auth/legacy.ts.', // 6
      'Build output goes to dist/cli.js; config in `tsconfig.json`, `README.txt` and `src/old/`.', // 7
      'See [prefs](user_prefs.md), [gone](gone.md) and [[user-prefs]] and [[nobody]].', // 8
      'Relative: ../src/auth/session.ts and ./docs/x.md', // 9
      '```', // 10
      'cat src/not/checked.ts', // 11
      '```', // 12
    ].join('\n');
    const files = [mem('project_auth.md', doc({ ...VALID, related: '[missing.md]' }, body)), mem('user_prefs.md', doc({ ...VALID, name: 'user-prefs' }))];
    const result = await lint(['content/broken-reference'], {
      files,
      memoryPaths: ['project_auth.md', 'user_prefs.md'],
      repoFiles: ['src/auth/session.ts', 'tsconfig.json', '.memory/project_auth.md', '.memory/user_prefs.md'],
      repoIgnoredDirs: ['dist/'],
      memoryPrefix: '.memory',
    });
    expect(lines(result)).toEqual([
      'project_auth.md:6:1 content/broken-reference links to missing.md, which does not exist in the memory directory; fix or remove the link',
      'project_auth.md:8:39 content/broken-reference mentions src/auth/legacy.ts, which does not exist in the repository; verify before use, then update or remove the reference',
      'project_auth.md:9:63 content/broken-reference mentions README.txt, which does not exist in the repository; verify before use, then update or remove the reference',
      'project_auth.md:9:80 content/broken-reference mentions src/old/, which does not exist in the repository; verify before use, then update or remove the reference',
      'project_auth.md:10:1 content/broken-reference links to gone.md, which does not exist in the memory directory; fix or remove the link',
      'project_auth.md:10:1 content/broken-reference links to [[nobody]], which matches no memory file name; fix or remove the link',
      'project_auth.md:11:38 content/broken-reference mentions ./docs/x.md, which does not exist in the repository; verify before use, then update or remove the reference',
    ]);
  });

  it('broken-reference: links written inside inline code are examples, not links', async () => {
    const files = [mem('a.md', doc(VALID, 'Bodies link memories as `[[name]]` and `[x](y.md)`; this one is real: [[missing]].\n'))];
    expect(lines(await lint(['content/broken-reference'], { files }))).toEqual([
      'a.md:7:1 content/broken-reference links to [[missing]], which matches no memory file name; fix or remove the link',
    ]);
  });

  it('broken-reference: without a repository file list only memory links are checked', async () => {
    const files = [mem('a.md', doc(VALID, 'See src/gone.ts and [b](b.md).'))];
    expect(lines(await lint(['content/broken-reference'], { files }))).toEqual([
      'a.md:7:1 content/broken-reference links to b.md, which does not exist in the memory directory; fix or remove the link',
    ]);
  });
});

describe('session rules', () => {
  const full = '## Goal\nShip it\n## Progress\nDone\n## Decisions\nnone recorded\n## Changed Files\n- a.ts\n## Blockers\nnone recorded\n## Next Steps\nRelease\n';
  it('missing-field: each of the six fields', async () => {
    const files = [
      mem('sessions/2026-11-20T100000-ok.md', doc({ ...VALID, kind: 'session' }, full)),
      mem('sessions/2026-11-21T100000-partial.md', doc({ ...VALID, kind: 'session' }, '## Goal\nx\n**Progress:** y\nNext steps: z\n')),
      mem('decision.md', doc({ ...VALID, kind: 'decision' }, 'no fields')),
      mem('sessions/2026-11-21T110000-notes.md', doc({ ...VALID, kind: 'session', template: 'notes' }, '## Current State\nx\n')),
    ];
    expect(lines(await lint(['session/missing-field'], { files }))).toEqual([
      'sessions/2026-11-21T100000-partial.md:8:1 session/missing-field session summary has no "Decisions" field; write it (or "none recorded") so the omission is visible',
      'sessions/2026-11-21T100000-partial.md:8:1 session/missing-field session summary has no "Changed Files" field; write it (or "none recorded") so the omission is visible',
      'sessions/2026-11-21T100000-partial.md:8:1 session/missing-field session summary has no "Blockers" field; write it (or "none recorded") so the omission is visible',
    ]);
  });

  it('over-budget: sessions over 650 tokens', async () => {
    const counter: TokenCounter = { encoding: 'o200k_base', count: (text) => text.split(/\s+/).filter(Boolean).length };
    const files = [mem('sessions/s.md', doc({ ...VALID, kind: 'session' }, full + 'word '.repeat(700))), mem('sessions/t.md', doc({ ...VALID, kind: 'session' }, full))];
    expect(lines(await lint(['session/over-budget'], { files, tokens: counter }))).toEqual([
      'sessions/s.md:1:1 session/over-budget session summary is 740 tokens, over its 650-token budget; keep the decisions and next steps, summarise the rest',
    ]);
  });
});

describe('security/secret', () => {
  // Built at run time so no credential-shaped string sits in the repository.
  const githubToken = ['ghp', '_', 'wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx'].join('');

  it('finds a token with its line and column and never shows it in full', async () => {
    const files = [mem('a.md', doc(VALID, `Deploy notes.\nUse token ${githubToken} for the API.\n`)), mem('clean.md', doc(VALID))];
    const result = await lint(['security/secret'], { files });
    expect(lines(result)).toEqual([
      'a.md:8:11 security/secret possible secret: github token ghp_******** (40 characters) [secretlint-rule-github]; remove it, rotate the credential, and keep it in a secret store',
    ]);
    expect(JSON.stringify(result)).not.toContain(githubToken.slice(4));
  });

  it('scans unparseable files and MEMORY.md too, with their own line numbers', async () => {
    const { generateKeyPairSync } = await import('node:crypto');
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024, privateKeyEncoding: { type: 'pkcs1', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
    const files = Array.from({ length: 400 }, (_, i) => mem(`f${i}.md`, doc(VALID, 'plain text, some words\n'.repeat(40 + (i % 7)))));
    files.push(mem('zz.md', doc(VALID, `line\n\n${privateKey}`)));
    const result = await lint(['security/secret'], {
      files,
      problemTexts: { 'broken.md': `---\nname: [oops\n---\nkey ${githubToken}\n` },
      indexText: `# Memory\n\nAPI: ${githubToken}\n`,
    });
    expect(result.findings.map((f) => `${f.file}:${f.line}:${f.column}`)).toEqual(['MEMORY.md:3:6', 'broken.md:4:5', 'zz.md:9:1']);
    const text = JSON.stringify(result);
    expect(text).not.toContain(githubToken.slice(4));
    expect(text).not.toContain(privateKey.split('\n')[1]);
    expect(result.findings[2].message).toMatch(/^possible secret: private key ----\*{8} \(\d+ characters\) \[secretlint-rule-privatekey\]/);
  });
});

describe('security/secret suppression', () => {
  const token = ['ghp', '_', 'wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx'].join('');
  it('a secretlint-disable comment covers only the block it opens and closes or the next line, never the rest of the file (issue 20 item 4)', async () => {
    const files = [
      // Unclosed: silences nothing (it used to silence the rest of a.md).
      mem('a.md', doc(VALID, `fake example: ${token}\n<!-- secretlint-disable -->\n${token}\n`)),
      mem('b.md', doc(VALID, `real: ${token}\n`)),
      mem('c.md', doc(VALID, `<!-- secretlint-disable -->\n${token}\n<!-- secretlint-enable -->\n${token}\n`)),
      mem('d.md', doc(VALID, `<!-- secretlint-disable-next-line -->\n${token}\n${token}\n`)),
    ];
    const result = await lint(['security/secret'], { files });
    expect(result.findings.map((f) => `${f.file}:${f.line}`)).toEqual(['a.md:7', 'a.md:9', 'b.md:7', 'c.md:10', 'd.md:9']);
  });
});

describe('runner', () => {
  it('sorts findings by file, line and column, and applies severities from the config', async () => {
    const { only } = await import('../../../helpers/lint.js');
    const config = only('frontmatter/required', 'frontmatter/invalid-type');
    config.rules['frontmatter/invalid-type'] = 'warn';
    const files = [mem('b.md', doc({ name: 'x', description: 'y', type: 'nope' })), mem('a.md', doc({ name: 'x' }))];
    const result = await lint(config, { files });
    expect(result.findings.map((f) => `${f.file}:${f.line} ${f.severity} ${f.ruleId}`)).toEqual([
      'a.md:1 error frontmatter/required',
      'a.md:1 error frontmatter/required',
      'b.md:4 warning frontmatter/invalid-type',
    ]);
    expect([result.errorCount, result.warningCount]).toEqual([2, 1]);
    expect(result.checked).toEqual(['a.md', 'b.md']);
  });

  it('the default config runs every rule and is clean on a tidy memory directory', async () => {
    const { defaultLintConfig } = await import('../../../../src/kernel/lint/config.js');
    const files = [mem('project_auth.md', doc(VALID, 'Sessions moved to JWT in src/auth/session.ts.\n'))];
    const result = await lint(defaultLintConfig(RULES), {
      files,
      indexText: renderIndexFile(undefined, files),
      repoFiles: ['src/auth/session.ts'],
      memoryPrefix: '.memory',
      tokens: { encoding: 'o200k_base', count: () => 1 },
    });
    expect(lines(result)).toEqual([]);
    expect(NOW.toISOString()).toBe('2026-11-21T12:00:00.000Z');
  });
});

describe('docs/commands/lint.md', () => {
  it('documents every rule with its default severity and whether it is fixable', async () => {
    const { readFileSync } = await import('node:fs');
    const readme = readFileSync(new URL('../../../../docs/commands/lint.md', import.meta.url), 'utf8');
    for (const rule of RULES) {
      const row = readme.split('\n').find((line) => line.startsWith(`| \`${rule.id}\` |`));
      expect(row, rule.id).toBeDefined();
      expect(row!.split('|').slice(2, 4).map((c) => c.trim())).toEqual([rule.defaultSeverity === 'error' ? 'error' : 'warn', rule.fixable ? 'yes' : 'no']);
    }
  });
});

describe('progress', () => {
  it('reports each enabled rule before it runs', async () => {
    const seen: string[] = [];
    await lint(['frontmatter/required', 'content/stale'], { onProgress: (id, done, total) => seen.push(`${done}/${total} ${id}`) });
    expect(seen).toEqual(['0/2 frontmatter/required', '1/2 content/stale']);
  });
});
