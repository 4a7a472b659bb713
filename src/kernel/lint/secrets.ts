/**
 * Finding secrets in text with secretlint: the recommended preset (with AWS access key IDs turned
 * on) plus a JWT pattern. Used by lint's security/secret rule and by the commands that print memory
 * text (pack, show, search --open), which warn about what they print.
 */
import { maskSecret } from './text.js';
import { contentHash } from '../tokens/hash.js';
import { unitBytes } from '../text/unit-bytes.js';

export interface Item {
  path: string;
  text: string;
}

export interface SecretHit {
  path: string;
  line: number;
  column: number;
  /** The secret as found (for masking; never printed). */
  secret: string;
  /** "aws access key id", "json web token"… */
  label: string;
  /** The secretlint rule, e.g. secretlint-rule-aws. */
  rule: string;
}

/** "AWSSecretAccessKey" or "GITHUB_TOKEN" → "aws secret access key", "github token". */
function label(messageId: string | undefined, ruleId: string): string {
  const text = messageId ?? ruleId.replace(/^.*secretlint-rule-/, '');
  return text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2').replace(/[_-]+/g, ' ').toLowerCase().trim();
}

/**
 * Shapes the recommended preset misses, as secretlint-rule-pattern patterns (each linear: classes and
 * literals, no nested repetition). An assignment's pattern matches the value only (a lookbehind), so the
 * mask keeps the key readable.
 */
const PATTERNS = [
  /** Three base64url parts, the first two JSON objects (`eyJ`). */
  { name: 'JSON Web Token', patterns: [String.raw`/\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/`] },
  { name: 'private key', patterns: [String.raw`/(?<=-----BEGIN[ A-Z]{0,20}PRIVATE KEY-----)[^-]{16,20000}(?=-----END)/`] },
  { name: 'Stripe secret key', patterns: [String.raw`/\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}/`] },
  { name: 'Google API key', patterns: [String.raw`/\bAIza[0-9A-Za-z_-]{35}/`] },
  { name: 'Azure storage account key', patterns: [String.raw`/(?<=AccountKey=)[A-Za-z0-9+\/]{20,}={0,2}/`] },
  { name: 'SendGrid API key', patterns: [String.raw`/\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/`] },
  { name: 'OpenAI API key', patterns: [String.raw`/\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}/`] },
  { name: 'Anthropic API key', patterns: [String.raw`/\bsk-ant-(?:api|admin)\d\d-[A-Za-z0-9_-]{20,}/`] },
  {
    name: 'password, secret or token assignment',
    patterns: [String.raw`/(?<=\b[A-Z0-9_]*(?:PASSWORD|PASSWD|SECRET|TOKEN)[A-Z0-9_]*[ \t]*[=:][ \t]*["']?)[^\s"'$<{}]{6,}/`],
  },
];

async function secretlintConfig() {
  const [{ creator: preset }, { creator: pattern }] = await Promise.all([import('@secretlint/secretlint-rule-preset-recommend'), import('@secretlint/secretlint-rule-pattern')]);
  return {
    rules: [
      { id: '@secretlint/secretlint-rule-preset-recommend', rule: preset, rules: [{ id: '@secretlint/secretlint-rule-aws', options: { enableIDScanRule: true } }] },
      { id: '@secretlint/secretlint-rule-pattern', rule: pattern, options: { patterns: PATTERNS } },
    ],
  };
}

/**
 * The text with each `secretlint-disable` that no `secretlint-enable` closes made inert (same length, so
 * offsets hold): a disable comment covers the block it opens and closes, or with `-line`/`-next-line` one
 * line, as secretlint documents; never the rest of the file.
 */
function closeDisables(text: string): string {
  if (!text.includes('secretlint-disable')) return text;
  const lastEnable = text.lastIndexOf('secretlint-enable');
  return text.replace(/secretlint-disable(?![-\w])/g, (match, at: number) => (at < lastEnable ? match : 'secretlint-unclosd'));
}

/** The text with every secretlint directive made inert (same length): what masks must not obey. */
function ignoreDisables(text: string): string {
  return text.includes('secretlint-') ? text.replace(/secretlint-(?=disable|enable)/g, 'secretlint_') : text;
}

export interface FindOptions {
  /**
   * Obey `secretlint-disable` comments (lint's findings, as ESLint obeys its own). Off by default: what
   * masks text for a bundle or an answer finds every secret, whatever a comment says.
   */
  honourDisables?: boolean;
}

/** Every possible secret in these texts, with its file, line and column. */
export async function findSecrets(items: Item[], options: FindOptions = {}): Promise<SecretHit[]> {
  const [{ lintSource }, config] = await Promise.all([import('@secretlint/core'), secretlintConfig()]);
  const out: SecretHit[] = [];
  const prepare = options.honourDisables ? closeDisables : ignoreDisables;
  for (const chunk of chunks(items.map((item) => ({ ...item, text: prepare(item.text) })))) {
    const result = await lintSource({
      source: { content: chunk.content, filePath: 'memory.md', ext: '.md', contentType: 'text' },
      options: { config: config, maskSecrets: true, noPhysicFilePath: true },
    });
    // A shape the preset already reported (a private key block) is not reported again by a pattern.
    const preset = result.messages.filter((m) => !m.ruleId.endsWith('secretlint-rule-pattern'));
    const again = (m: (typeof result.messages)[number]) => m.ruleId.endsWith('secretlint-rule-pattern') && preset.some((p) => p.range[0] < m.range[1] && m.range[0] < p.range[1]);
    for (const m of result.messages) {
      if (again(m)) continue;
      const part = chunk.parts[partAt(chunk.parts, m.range[0])];
      const rule = m.ruleId.replace(/^@secretlint\//, '');
      const name = rule === 'secretlint-rule-pattern' ? patternLabel(chunk.content, m.range) : label(m.messageId, m.ruleId);
      out.push({ path: part.path, line: m.loc.start.line - part.line + 1, column: m.loc.start.column + 1, secret: chunk.content.slice(m.range[0], Math.min(m.range[1], part.end)), label: name, rule });
    }
  }
  return out;
}

/** Each pattern as a sticky regular expression, to tell which one matched at an offset. */
let sticky: { name: string; re: RegExp }[] | undefined;

/** A pattern hit's label: the name of the pattern that matches there, lower case ("json web token"). secretlint masks the name in its message. */
function patternLabel(content: string, range: readonly [number, number] | number[]): string {
  sticky ??= PATTERNS.map((p) => {
    const [, body, flags] = /^\/(.*)\/([a-z]*)$/s.exec(p.patterns[0])!;
    return { name: p.name, re: new RegExp(body, `${flags}y`) };
  });
  const found = sticky.find(({ re }) => {
    re.lastIndex = range[0];
    return re.exec(content)?.[0].length === range[1] - range[0];
  });
  return (found?.name ?? 'secret').toLowerCase();
}

/** The text with every one of these secrets masked (maskSecret), longest first. */
export function maskSecretsIn(text: string, secrets: Iterable<string>): string {
  let out = text;
  for (const secret of [...new Set(secrets)].sort((a, b) => b.length - a.length)) if (secret.length >= 6 && out.includes(secret)) out = out.split(secret).join(maskSecret(secret));
  return out;
}

/**
 * Memory text with every possible secret masked, for answers that reach a model (MCP pack, view, search)
 * and the CLI bundle. secretlint is loaded only when some text has a secret's shape.
 */
export async function redactSecrets(text: string): Promise<string> {
  if (!maybeSecret(text)) return text;
  return maskSecretsIn(text, (await findSecrets([{ path: '', text }])).map((hit) => hit.secret));
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
    // A `secretlint-disable` block holds until its `secretlint-enable`: such a file is scanned alone.
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


/**
 * Text that might hold something the secretlint rules report: key prefixes (AWS, GitHub, GitLab,
 * Slack, OpenAI/Anthropic `sk-`, Stripe, npm, Google, Hugging Face, SendGrid, Shopify, Vault, Grafana,
 * Docker, 1Password, Databricks, Linear, Notion, Figma, Groq, Vercel), AWS secret-key and
 * account-id assignments, private key blocks, JWTs and credentials in URLs. Checked against
 * secretlint's own test inputs (test/lint/secret-prefilter.test.ts). Linear: alternation of literals,
 * grouped by first letter (AKIA, ASIA, A3T, AIza, account…, auths under `a`, and so on), which the
 * regular expression engine tries faster than one flat list.
 */
const MAYBE_SECRET =
  /a(?:kia|sia|3t|iza|ccount_?(?:id)?["']?\s*(?::|=>|=)|uths)|s(?:ecret_?access|k-|k_(?:live|test)|g\.|hp(?:at|ss|ca|pa)_)|g(?:h[pousr]_|ithub_pat_|l(?:pat-|c_|sa_)|sk_)|x(?:ox[a-z]-|app-)|h(?:ooks\.slack\.com|f_|vs\.)|rk_(?:live|test)|npm_|ya29\.|-----begin|eyj|:\/\/[^\s\/:@]{1,200}:[^\s\/@]{1,200}@|d(?:ckr_pat_|api)|ops_|lin_api_|ntn_|figd_|v(?:ercel|c[pikar]_)|private_key/i;

/** An env-style assignment of a password, secret or token (`DB_PASSWORD=`), and an Azure account key. Case matters. */
const ASSIGNED_SECRET = /(?:PASSWORD|PASSWD|SECRET|TOKEN)[A-Z0-9_]*[ \t]*[=:]|AccountKey=/;

/** maybeSecret's patterns (neither global nor sticky): a text might hold a secret when one matches. */
export const MAYBE_SECRET_PATTERNS: readonly RegExp[] = [MAYBE_SECRET, ASSIGNED_SECRET];

/**
 * The first three characters (lower case) of every alternative of MAYBE_SECRET: a match starts with one
 * of them. Held against the pattern by test/kernel/lint/secrets/prefilter.test.ts.
 */
export const MAYBE_SECRET_STARTS: readonly string[] = [
  ...['aki', 'asi', 'a3t', 'aiz', 'acc', 'aut', 'sec', 'sk-', 'sk_', 'sg.', 'shp', 'ghp', 'gho', 'ghu', 'ghs', 'ghr', 'git', 'glp', 'glc', 'gls', 'gsk'],
  ...['xox', 'xap', 'hoo', 'hf_', 'hvs', 'rk_', 'npm', 'ya2', '---', 'eyj', '://', 'dck', 'dap', 'ops', 'lin', 'ntn', 'fig', 'ver', 'vcp', 'vci', 'vck', 'vca', 'vcr', 'pri'],
];

/** MAYBE_SECRET, tried at one offset (lastIndex). */
const MAYBE_SECRET_AT = new RegExp(MAYBE_SECRET.source, 'iy');

/** Per byte: the ASCII character itself lower-cased when it is in some start, else 0. */
const START_CHAR = new Uint8Array(256);
/** Per two start characters (first << 7 | second): 1 + the pair's number, 0 when no start begins so. */
const START_PAIR = new Uint8Array(1 << 14);
/** Per pair number and third character (pair << 7 | third): 1 when a start is so. */
const START_THIRD = new Uint8Array((MAYBE_SECRET_STARTS.length + 1) << 7);
let startPairs = 0;
for (const start of MAYBE_SECRET_STARTS) {
  const [a, b, c] = [...start].map((ch) => ch.charCodeAt(0));
  for (const code of [a, b, c]) START_CHAR[code] = START_CHAR[String.fromCharCode(code).toUpperCase().charCodeAt(0)] = code;
  const pair = (a << 7) | b;
  START_PAIR[pair] ||= ++startPairs;
  START_THIRD[(START_PAIR[pair] << 7) | c] = 1;
}

/**
 * MAYBE_SECRET.test(text), faster: the pattern is tried only where three characters in a row are a start
 * (its case-insensitive letters match only their two ASCII cases, so other characters start nothing).
 * The text is read as the low byte of each unit (text/unit-bytes.ts): an ASCII start reads as itself,
 * and another unit that reads as one is refused by the pattern tried there.
 */
function maybeSecretPattern(text: string): boolean {
  const n = text.length;
  const bytes = unitBytes(text);
  const chars = START_CHAR;
  const pairs = START_PAIR;
  const thirds = START_THIRD;
  // The start pair of the last two characters (0: none), and the last character.
  let pair = 0;
  let b = 0;
  for (let i = 0; i < n; i++) {
    const c = chars[bytes[i]];
    if (thirds[(pair << 7) | c] !== 0) {
      MAYBE_SECRET_AT.lastIndex = i - 2;
      if (MAYBE_SECRET_AT.test(text)) return true;
    }
    pair = pairs[(b << 7) | c];
    b = c;
  }
  return false;
}

/** True when a text might hold a secret (secretWarnings runs secretlint only then). */
export const maybeSecret = (text: string): boolean => maybeSecretPattern(text) || ASSIGNED_SECRET.test(text);

let maybeSecretId: string | undefined;

/** maybeSecret as a check whose answers a cache may keep: its id changes with the patterns (hashed on first use, so loading this module loads no node:crypto). */
export const MAYBE_SECRET_CHECK = {
  get id(): string {
    return (maybeSecretId ??= contentHash(`${MAYBE_SECRET.source}\n${ASSIGNED_SECRET.source}`).slice(0, 12));
  },
  test: maybeSecret,
};

/** One stderr warning per possible secret in text a command is about to print (file, line, rule). */
export async function secretWarnings(items: Item[]): Promise<string[]> {
  // Loading secretlint costs a few hundred ms: commands that print memory text load it only when
  // some text has a shape the preset's rules look for (lint always runs the full scan).
  if (!items.some((item) => maybeSecret(item.text))) return [];
  return (await findSecrets(items)).map(
    (hit) => `${hit.path}:${hit.line}: possible secret in the output (${hit.label}, ${hit.rule}); remove it from the memory file and rotate it (\`memctx lint\` lists them all)`,
  );
}
