// Prints what memctx answers to a fixed set of command lines on the shipped fixtures, in-process with a
// fixed clock, one file per command line: run it on two checkouts (each built) and `diff -r` the two
// folders to show a change kept every output byte for byte.
//   node scripts/outputs.mjs OUT_DIR [REPO]   (REPO defaults to this checkout)
// usage: node snapshot.mjs REPO OUTDIR — runs a fixed list of commands in-process with a fixed clock, writes outputs.
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync, mkdirSync, utimesSync, rmSync, existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { Readable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';

const out = process.argv[2];
const repo = resolve(process.argv[3] ?? fileURLToPath(new URL('..', import.meta.url)));
if (!out) { console.error('usage: node scripts/outputs.mjs OUT_DIR [REPO]'); process.exit(2); }
const cands = ['dist/src/main.js', 'dist/src/cli/main.js'];
const mainPath = cands.map((c) => join(repo, c)).find((p) => existsSync(p));
const { main } = await import(pathToFileURL(mainPath).href);
mkdirSync(out, { recursive: true });
const NOW = new Date('2026-11-28T12:00:00Z');
const work = mkdtempSync(join(tmpdir(), 'snap-'));
const cache = mkdtempSync(join(tmpdir(), 'snap-cache-'));
const setMtimes = (dir) => { for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) { const p = join(e.parentPath ?? e.path, e.name); utimesSync(p, new Date('2026-11-20T10:00:00Z'), new Date('2026-11-20T10:00:00Z')); } };
function fresh(name) { const d = join(work, name + '-' + Math.random().toString(36).slice(2)); mkdirSync(d); cpSync(join(repo, 'fixtures', name), join(d, '.memory'), { recursive: true }); setMtimes(d); return d; }
const tr = (n) => join(repo, 'fixtures/transcripts', n);
function tree(dir) { const r = {}; for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) { if (!e.isFile()) continue; const p = join(e.parentPath ?? e.path, e.name); r[relative(dir, p)] = readFileSync(p, 'utf8'); } return r; }
async function run(id, argv, cwd, input = '') {
  let so = '', se = '';
  const io = { stdout: { write: (t) => { so += t; } }, stderr: { write: (t) => { se += t; } }, stdin: Readable.from([input]), cwd, env: { NO_COLOR: '1', XDG_CACHE_HOME: cache, HOME: work, PATH: process.env.PATH }, home: work, now: () => NOW };
  let code; try { code = await main(['node', 'memctx', ...argv], io); } catch (e) { code = 'THROW ' + e.message; }
  const norm = (s) => s.split(cwd).join('<CWD>').split(repo).join('<REPO>').replace(/\d+(\.\d+)? ?ms\b/g, 'N ms');
  writeFileSync(join(out, id + '.txt'), `code ${code}\n--- stdout\n${norm(so)}\n--- stderr\n${norm(se)}\n`);
}
const ro = [
  ['ls', ['ls']], ['ls-json', ['ls', '--json']], ['show', ['show', 'project_auth.md']],
  ['search', ['search', 'auth token']], ['search-json', ['search', '--json', 'database migration']],
  ['pack', ['pack']], ['pack-json', ['pack', '--json']], ['pack-xml', ['pack', '--format', 'xml']],
  ['pack-task', ['pack', '--task', 'fix the login bug', '--budget', '1500']], ['pack-task-json', ['pack', '--json', '--task', 'fix the login bug', '--budget', '1500']],
  ['pack-rehydrate', ['pack', '--json', '--profile', 'rehydrate']], ['pack-enc', ['pack', '--encoding', 'O200K_BASE']],
  ['lint', ['lint']], ['lint-json', ['lint', '--format', 'json']], ['lint-sarif', ['lint', '--format', 'sarif']], ['lint-github', ['lint', '--format', 'github']],
  ['index-check', ['index', '--check']], ['gc', ['gc']], ['gc-json', ['gc', '--json']], ['verify', ['verify', '--json']], ['sessions', ['sessions', '--json']], ['sessions-field', ['sessions', '--field', 'goal']],
  ['bad-flag', ['pack', '--budget', 'abc']], ['bad-cmd', ['nope']],
];
for (const fx of ['seed-memory', 'claude-memory']) for (const [id, argv] of ro) await run(`${fx}-${id}`, argv, fresh(fx));
for (const fx of ['lint-broken', 'broken']) { await run(`${fx}-lint-json`, ['lint', '--format', 'json'], fresh(fx)); await run(`${fx}-ls`, ['ls', '--json'], fresh(fx)); await run(`${fx}-pack`, ['pack', '--json'], fresh(fx)); }
const trs = ['claude-compacted.jsonl', 'claude-long.jsonl', 'claude-session.jsonl', 'codex-session.jsonl', 'openai-messages.json', 'session.md'];
for (const t of trs) {
  const d = fresh('seed-memory');
  await run(`status-${t}`, ['status', tr(t)], d); await run(`status-json-${t}`, ['status', '--json', tr(t)], d);
  await run(`compact-${t}`, ['compact', tr(t)], d); await run(`flush-dry-${t}`, ['flush', '--dry-run', '--transcript', tr(t)], d);
  await run(`flush-json-${t}`, ['flush', '--json', '--dry-run', '--transcript', tr(t)], d);
}
for (const f of readdirSync(join(repo, 'fixtures/transcripts/real'))) { const d = fresh('seed-memory'); await run(`real-flush-${f}`, ['flush', '--dry-run', '--transcript', join(repo, 'fixtures/transcripts/real', f)], d); await run(`real-status-${f}`, ['status', '--json', join(repo, 'fixtures/transcripts/real', f)], d); }
// writes
const d = fresh('seed-memory');
await run('w-add', ['add', 'project_new.md', '--name', 'New thing', '--description', 'A new thing', '--type', 'project', '--body', 'Some body text about widgets.'], d);
await run('w-edit', ['edit', 'project_new.md', '--old', 'widgets', '--new', 'gadgets'], d);
await run('w-mv', ['mv', 'project_new.md', 'project_newer.md'], d);
await run('w-flush', ['flush', '--goal', 'Fix it', '--progress', 'did a thing', '--decision', 'use X because Y', '--changed', 'src/a.ts', '--next', 'ship'], d);
await run('w-rm', ['rm', 'scratch_notes.md'], d);
await run('w-index', ['index'], d);
await run('w-gc-apply', ['gc', '--apply'], d);
await run('w-lint-fix', ['lint', '--fix', '--format', 'json'], d);
writeFileSync(join(out, 'w-tree.json'), JSON.stringify(tree(join(d, '.memory')), null, 1));
const h = fresh('seed-memory');
await run('hook-flush', ['flush', '--hook'], h, JSON.stringify({ session_id: 's1', transcript_path: tr('claude-session.jsonl'), cwd: h, hook_event_name: 'SessionEnd', reason: 'exit' }));
await run('statusline', ['status', '--statusline'], h, JSON.stringify({ context_window: { used_percentage: 83, context_window_size: 200000 } }));
writeFileSync(join(out, 'hook-tree.json'), JSON.stringify(Object.keys(tree(join(h, '.memory'))).sort(), null, 1));
rmSync(work, { recursive: true, force: true }); rmSync(cache, { recursive: true, force: true });
console.log('done', readdirSync(out).length);
