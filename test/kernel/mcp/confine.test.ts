import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/cli.js';
import { confineTranscript, insideProject } from '../../../src/kernel/mcp/confine.js';
import { claudeProjectDir } from '../../../src/kernel/store/find.js';

/** A project, a home with Claude Code's folder for it and Codex's sessions, and a host folder outside both. */
function host() {
  const base = realpathSync(tempDir());
  const cwd = join(base, 'project');
  const home = join(base, 'home');
  const outside = join(base, 'outside');
  const env = {};
  for (const dir of [cwd, join(cwd, 'logs'), join(cwd, '.git'), join(home, '.codex', 'sessions', '2026'), outside]) mkdirSync(dir, { recursive: true });
  const claude = claudeProjectDir(cwd, home, env);
  mkdirSync(claude, { recursive: true });
  const files: Record<string, string> = {
    claude: join(claude, 's.jsonl'),
    codex: join(home, '.codex', 'sessions', '2026', 'r.jsonl'),
    log: join(cwd, 'logs', 'run.log'),
    hidden: join(cwd, '.git', 'x.jsonl'),
    script: join(cwd, 'run.sh'),
    secret: join(outside, 'leak.jsonl'),
  };
  for (const file of Object.values(files)) writeFileSync(file, '{}\n');
  symlinkSync(files.secret, join(cwd, 'logs', 'link.jsonl'));
  return { where: { cwd, home, env }, files, cwd };
}

const refusal = (given: string) => `transcript ${JSON.stringify(given)} is outside this project's transcripts`;

describe('confineTranscript', () => {
  it("gives the real path of a transcript in Claude Code's folder, Codex's sessions or the project", () => {
    const { where, files } = host();
    expect(confineTranscript(files.claude, where)).toBe(files.claude);
    expect(confineTranscript(files.codex, where)).toBe(files.codex);
    expect(confineTranscript('logs/run.log', where)).toBe(files.log);
  });

  it('refuses a path outside them, a hidden part, another extension, a NUL byte and a link out, echoing only the name given', () => {
    const { where, files } = host();
    for (const given of [files.secret, '../outside/leak.jsonl', '.git/x.jsonl', 'run.sh', 'logs/run.log\0', 'logs/link.jsonl', 'logs']) {
      expect(() => confineTranscript(given, where), given).toThrow(refusal(given));
    }
  });

  it('says when an allowed path does not exist', () => {
    const { where } = host();
    expect(() => confineTranscript('logs/none.jsonl', where)).toThrow('transcript "logs/none.jsonl" does not exist');
  });

  it('takes CODEX_HOME for Codex sessions', () => {
    const { where, files, cwd } = host();
    const codexHome = join(cwd, '..', 'codex-home');
    mkdirSync(join(codexHome, 'sessions'), { recursive: true });
    writeFileSync(join(codexHome, 'sessions', 'x.jsonl'), '{}\n');
    const env = { CODEX_HOME: codexHome };
    expect(confineTranscript(join(codexHome, 'sessions', 'x.jsonl'), { ...where, env })).toBe(join(codexHome, 'sessions', 'x.jsonl'));
    expect(() => confineTranscript(files.codex, { ...where, env })).toThrow(refusal(files.codex));
  });
});

describe('insideProject', () => {
  it('is true for a file in the project, false for a hidden one, one outside, a link out or one missing', () => {
    const { where, files } = host();
    expect(insideProject('run.sh', where)).toBe(true);
    expect(insideProject(files.log, where)).toBe(true);
    expect(insideProject('.git/x.jsonl', where)).toBe(false);
    expect(insideProject(files.secret, where)).toBe(false);
    expect(insideProject('logs/link.jsonl', where)).toBe(false);
    expect(insideProject('missing.txt', where)).toBe(false);
  });
});
