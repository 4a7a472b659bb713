import { INDEX_FILE } from '../../store/scan.js';
import type { LintRule, Report } from '../types.js';
import { maskSecret } from '../text.js';

/** "AWSSecretAccessKey" or "GITHUB_TOKEN" → "aws secret access key", "github token". */
function label(messageId: string | undefined, ruleId: string): string {
  const text = messageId ?? ruleId.replace(/^.*secretlint-rule-/, '');
  return text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2').replace(/[_-]+/g, ' ').toLowerCase().trim();
}

const rule: LintRule = {
  id: 'security/secret',
  description: 'No credentials in memory files (unparseable ones included) or MEMORY.md: API keys and tokens (AWS, GCP, GitHub, GitLab, Slack, npm, OpenAI, Anthropic…), private keys, database connection strings, basic-auth URLs, found by secretlint\'s recommended preset. Output shows only a masked prefix; a `<!-- secretlint-disable -->` comment in a file silences it for the rest of that file only.',
  defaultSeverity: 'error',
  fixable: false,
  async check(ctx) {
    const [{ lintSource }, { creator }] = await Promise.all([import('@secretlint/core'), import('@secretlint/secretlint-rule-preset-recommend')]);
    const config = { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: creator }] };
    const out: Report[] = [];
    const items: Item[] = ctx.files.map((file) => ({ path: file.path, text: ctx.textOf(file) }));
    for (const [path, text] of ctx.problemTexts) items.push({ path, text });
    if (ctx.indexText !== undefined) items.push({ path: INDEX_FILE, text: ctx.indexText });
    for (const chunk of chunks(items)) {
      const result = await lintSource({
        source: { content: chunk.content, filePath: 'memory.md', ext: '.md', contentType: 'text' },
        options: { config, maskSecrets: true, noPhysicFilePath: true },
      });
      for (const m of result.messages) {
        const part = chunk.parts[partAt(chunk.parts, m.range[0])];
        const secret = chunk.content.slice(m.range[0], Math.min(m.range[1], part.end));
        out.push({
          file: part.path,
          line: m.loc.start.line - part.line + 1,
          column: m.loc.start.column + 1,
          message: `possible secret: ${label(m.messageId, m.ruleId)} ${maskSecret(secret)} [${m.ruleId.replace(/^@secretlint\//, '')}]; remove it, rotate the credential, and keep it in a secret store`,
        });
      }
    }
    return out;
  },
};

interface Item {
  path: string;
  text: string;
}

interface Part {
  path: string;
  /** Offsets of the file's text in the chunk. */
  start: number;
  end: number;
  /** 1-based line of the chunk where the file starts. */
  line: number;
}

/**
 * Files joined into chunks of about CHUNK_BYTES: secretlint's per-call cost (rule setup and a
 * profiler whose bookkeeping grows with every call) dominates when it is called once per file.
 */
const CHUNK_BYTES = 256 * 1024;
const SEPARATOR = '\n\n';

function* chunks(items: Item[]): Generator<{ content: string; parts: Part[] }> {
  let texts: string[] = [];
  let parts: Part[] = [];
  let offset = 0;
  let line = 1;
  const flush = function* () {
    if (parts.length) yield { content: texts.join(SEPARATOR), parts };
    texts = [];
    parts = [];
    offset = 0;
    line = 1;
  };
  for (const { path, text } of items) {
    // A `secretlint-disable` comment holds for the rest of its source: such a file is scanned alone.
    if (text.includes('secretlint-')) {
      yield { content: text, parts: [{ path, start: 0, end: text.length, line: 1 }] };
      continue;
    }
    parts.push({ path, start: offset, end: offset + text.length, line });
    texts.push(text);
    offset += text.length + SEPARATOR.length;
    line += text.split('\n').length - 1 + 2;
    if (offset >= CHUNK_BYTES) yield* flush();
  }
  yield* flush();
}

/** Index of the part holding an offset (binary search). */
function partAt(parts: Part[], offset: number): number {
  let lo = 0;
  let hi = parts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (parts[mid].start <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

export default rule;
