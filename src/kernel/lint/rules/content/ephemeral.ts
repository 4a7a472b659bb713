import { quote } from '../../text.js';
import type { LintRule, Report } from '../../types.js';

/** "iteration 3 passed at 14:32", "CI went green @ 9:05". */
const TEST_RUN = /\b(?:pass(?:ed|es)?|fail(?:ed|s)?|succeeded|green|red|broke|ran|finished|completed|timed out)\b[^\n]{0,30}?(?:\bat|@)\s*\d{1,2}:\d{2}(?::\d{2})?(?:\s*[ap]m)?\b/i;
/** A hash after a git word: "commit 3f2a9c1", "fixed in a1b2c3d4", "reverted (sha 9e8d7c6)". */
const HASH_AFTER_WORD = /\b(?:commit(?:ted)?|sha1?|revision|rev|cherry-pick(?:ed)?|revert(?:ed)?|merged?|fixed in|landed in|introduced in|hash)\b[\s:#(`'"]*\b([0-9a-f]{7,40})\b/gi;
const FULL_HASH = /\b[0-9a-f]{40}\b/gi;
const GIT_LINES: { pattern: RegExp; what: string }[] = [
  { pattern: /^\s*Author:\s+.+<[^>\s]+@[^>\s]+>/, what: 'an `Author:` line of git log' },
  { pattern: /^\s*Merge (?:branch|pull request|remote-tracking branch)\b/, what: 'a merge record' },
];
const ONELINE_LOG = /^\s*(?:[*|\\/]\s*)*[0-9a-f]{7,12}\s+\S/;
/** A line of pasted output: timestamps, log levels, stack frames, test-runner lines. */
const LOG_LINE = /^\s*(?:\[?\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}|\[?\d{2}:\d{2}:\d{2}\b|\[?(?:INFO|WARN|WARNING|ERROR|DEBUG|TRACE|FATAL|CRITICAL)\]?[\s:]|at\s+\S.*:\d+:\d+\)?\s*$|npm (?:ERR|WARN)!|Traceback \(most recent call last\)|File "[^"]+", line \d+|[\w.]*(?:Error|Exception):\s|(?:PASS|FAIL|ok|not ok)\s+\S|[✓✔✗✘×]\s)/;
const LOG_MIN_LINES = 5;

const HEX_RUN = /[0-9a-f]{7}/i;

const isHexCode = (c: number) => (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66);

/**
 * HEX_RUN.test(text), looking at every 7th character only: a run of 7 hex digits holds one of them,
 * and only around a hex digit is the run measured. About 3.5 times faster than the regex on prose.
 */
function hasHexRun(text: string): boolean {
  const n = text.length;
  let i = 6;
  while (i < n) {
    if (!isHexCode(text.charCodeAt(i))) {
      i += 7;
      continue;
    }
    let start = i;
    while (start > 0 && isHexCode(text.charCodeAt(start - 1))) start--;
    let end = i + 1;
    while (end < n && isHexCode(text.charCodeAt(end))) end++;
    if (end - start >= 7) return true;
    i = end + 7;
  }
  return false;
}

/** The first commit hash on a line: after a git word, or a full 40-digit hash anywhere. */
function firstHash(text: string): { index: number; text: string } | undefined {
  let best: { index: number; text: string } | undefined;
  for (const m of text.matchAll(HASH_AFTER_WORD)) {
    const index = m.index + m[0].lastIndexOf(m[1]);
    if (isHash(m[1]) && (!best || index < best.index)) best = { index, text: m[1] };
  }
  for (const m of text.matchAll(FULL_HASH)) if (isHash(m[0]) && (!best || m.index < best.index)) best = { index: m.index, text: m[0] };
  return best;
}

const isHash = (text: string) => /\d/.test(text) && /[a-f]/i.test(text);
const shortHash = (hash: string) => `${hash.slice(0, 7)}${hash.length > 7 ? '…' : ''}`;

/**
 * `texts`: the body's lines, the first on file line `first` (fenced code is checked too, so the
 * lines need no fence state). `hex`: the body has a run of 7 hex digits somewhere (else no line can hold a hash).
 */
function fileReports(path: string, texts: string[], first: number, hex: boolean): Report[] {
  const out: Report[] = [];
  let logStart = -1;
  let onelineStart = -1;
  const flushLog = (end: number) => {
    if (logStart !== -1 && end - logStart >= LOG_MIN_LINES) {
      out.push({ file: path, line: first + logStart, column: 1, message: `pasted log output (${end - logStart} lines); store the conclusion, not the raw output` });
    }
    logStart = -1;
  };
  const flushOneline = (end: number) => {
    if (onelineStart !== -1 && end - onelineStart >= 2) {
      out.push({ file: path, line: first + onelineStart, column: 1, message: `pasted git history (${end - onelineStart} lines of \`git log --oneline\`); git already keeps it` });
    } else if (onelineStart !== -1) {
      const line = first + onelineStart;
      const text = texts[onelineStart];
      const hash = /[0-9a-f]{7,12}/i.exec(text)!;
      out.push({ file: path, line, column: hash.index + 1, message: `commit hash ${shortHash(hash[0])}: git history belongs in git (\`git log\`), not in memory; keep the durable fact` });
    }
    onelineStart = -1;
  };
  texts.forEach((text, i) => {
    const line = first + i;
    const run = /\d:\d\d/.test(text) ? TEST_RUN.exec(text) : null;
    if (run) out.push({ file: path, line, column: run.index + 1, message: `test-run timestamp "${quote(run[0], 50)}": ephemeral task state; keep only the durable fact` });
    const oneline = hex && ONELINE_LOG.test(text) && isHash(/[0-9a-f]{7,12}/i.exec(text)![0]);
    const hash = hex && HEX_RUN.test(text) && !oneline ? firstHash(text) : undefined;
    if (hash) {
      out.push({ file: path, line, column: hash.index + 1, message: `commit hash ${shortHash(hash.text)}: git history belongs in git (\`git log\`), not in memory; keep the durable fact` });
    }
    for (const { pattern, what } of GIT_LINES) {
      if ((text.includes('Author:') || text.includes('Merge ')) && pattern.test(text)) out.push({ file: path, line, column: 1, message: `pasted git history (${what}); git already keeps it` });
    }
    if (oneline) {
      if (onelineStart === -1) onelineStart = i;
    } else flushOneline(i);
    if (LOG_LINE.test(text)) {
      if (logStart === -1) logStart = i;
    } else flushLog(i);
  });
  flushOneline(texts.length);
  flushLog(texts.length);
  return out;
}

const rule: LintRule = {
  id: 'content/ephemeral',
  description: 'No ephemeral content in durable memory: test-run timestamps ("iteration 3 passed at 14:32"), commit hashes, pasted git history (log lines, authors, merge records) or pasted logs (5 or more consecutive log lines).',
  defaultSeverity: 'warning',
  fixable: false,
  check(ctx) {
    const out: Report[] = [];
    for (const file of ctx.files) {
      const kept = ctx.memo?.get(file.path, rule.id);
      if (Array.isArray(kept)) {
        out.push(...(kept as Report[]));
        continue;
      }
      const reports = fileReports(file.path, file.body.split('\n'), file.bodyLine, hasHexRun(file.body));
      ctx.memo?.set(file.path, rule.id, reports);
      out.push(...reports);
    }
    return out;
  },
};

export default rule;
