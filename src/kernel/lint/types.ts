import type { FileProblem, MemoryFile } from '../store/types.js';
import type { TokenCounter } from '../tokens/index.js';
import type { Drift } from '../drift/drift.js';

export type Severity = 'error' | 'warning';
/** A severity as written in the configuration. */
type RuleSetting = 'off' | 'warn' | 'error';

export interface Thresholds {
  /** content/too-large: tokens per memory file. */
  maxTokens: number;
  /** session/over-budget: tokens per session file. */
  sessionMaxTokens: number;
  /** index/too-long: lines and bytes of MEMORY.md. */
  indexMaxLines: number;
  indexMaxBytes: number;
  /** content/duplicate: Jaccard similarity of word shingles, 0-1. */
  duplicateSimilarity: number;
  /** content/stale and gc: decisions with importance <= decisionMaxImportance older than decisionMaxAgeDays. */
  decisionMaxAgeDays: number;
  decisionMaxImportance: number;
  /** content/stale and gc: resolved issues older than this. */
  resolvedIssueMaxAgeDays: number;
  /** gc: learnings not accessed (nor updated) for this long. */
  learningUnusedDays: number;
}

export interface LintConfig {
  /** Effective setting for every known rule. */
  rules: Record<string, RuleSetting>;
  thresholds: Thresholds;
  /** Allowed values of `type`. */
  types: string[];
}

/** A safe change `--fix` may make. */
type Fix =
  | { type: 'rebuild-index' }
  | { type: 'set-date'; key: 'updated' | 'modified'; value: string };

/** What a rule reports; the runner adds the rule id and severity. */
export interface Report {
  /** Path relative to the memory directory (`MEMORY.md` for the index). */
  file: string;
  /** 1-based, where known. */
  line?: number;
  column?: number;
  message: string;
  fix?: Fix;
}

export interface Finding extends Report {
  ruleId: string;
  severity: Severity;
}

/** The repository around the memory directory, prepared for look-ups. */
export interface RepoView {
  /** Every file, relative to the repository root. */
  files: Set<string>;
  /** Every directory holding a listed file (no trailing slash). */
  dirs: Set<string>;
  /** Base names of every file, for bare names such as `package.json`. */
  basenames: Set<string>;
  /** Ignored directories with a trailing slash: paths under them are taken to exist. */
  ignoredDirs: string[];
  /** The memory directory relative to the repository root ('' when it is the root), or undefined when outside it. */
  memoryPrefix?: string;
}

/**
 * What lint keeps between runs (cache/lint-cache.ts), keyed by each file's stat: values must be plain
 * JSON. A value is returned only while the file (or, for `whole`, every file) is unchanged.
 */
export interface LintMemo {
  /** The value kept for this file under `name`, or undefined. */
  get(path: string, name: string): unknown;
  set(path: string, name: string, value: unknown): void;
  /** The value kept under `name` while the same files have the same stats, or undefined. */
  getWhole(name: string): unknown;
  setWhole(name: string, value: unknown): void;
}

export interface RuleContext {
  files: MemoryFile[];
  problems: FileProblem[];
  /** MEMORY.md's text; undefined when it does not exist or could not be read. */
  indexText?: string;
  /** True when MEMORY.md exists but could not be read (reported as a problem). */
  indexUnreadable: boolean;
  config: LintConfig;
  thresholds: Thresholds;
  /** Every path under the memory directory (memory files, archive, anything else), relative to it. */
  memoryPaths: Set<string>;
  /** Every directory under the memory directory that holds a file. */
  memoryDirs: Set<string>;
  /** Text of files that could not be parsed but could be decoded (for the secret scan), by path. */
  problemTexts: Map<string, string>;
  /** Secrets the secret rule found: masked in every finding's message, whatever rule wrote it. */
  secrets?: Set<string>;
  repo?: RepoView;
  /** Each memory's drift from the code it names (kernel/drift/check.ts), when git was asked; memories that hold are absent. A promise while git still runs. */
  drift?: Map<string, Drift> | Promise<Map<string, Drift>>;
  /** `paths:` entries that leave the repository, by memory file. */
  outsideAnchors?: Map<string, string[]>;
  now: Date;
  /** The file as text (frontmatter and body), line numbers as on disk. */
  textOf(file: MemoryFile): string;
  /**
   * The exact token count of textOf(file) when it is over `limit`, else undefined. A text of at
   * most `limit` UTF-8 bytes is never counted (a token is at least one byte), so the tokenizer is
   * loaded only when some file could be over. Throws when no counter was given.
   */
  tokensOver(file: MemoryFile, limit: number): Promise<number | undefined>;
  /** MEMORY.md as `memctx index` would write it, or the error that prevents it (broken markers); cached. */
  expectedIndex(): string | Error;
  /** Results kept from an earlier run for unchanged files, when the caller keeps them. */
  memo?: LintMemo;
}

export interface LintRule {
  /** `group/name`, stable: used in config, output and SARIF. */
  id: string;
  description: string;
  defaultSeverity: Severity;
  /** True when findings can carry a safe fix. */
  fixable: boolean;
  /** True when the rule counts tokens (the caller must pass a counter). */
  needsTokens?: boolean;
  check(ctx: RuleContext): Report[] | Promise<Report[]>;
}

export interface LintInput {
  files: MemoryFile[];
  problems: FileProblem[];
  indexText?: string;
  indexUnreadable?: boolean;
  config: LintConfig;
  /** Repository file list (relative to the repository root); without it, path checks are skipped. */
  repoFiles?: string[];
  repoIgnoredDirs?: string[];
  memoryPrefix?: string;
  /** Every path under the memory directory; defaults to the scanned files and problems. */
  memoryPaths?: string[];
  /** Text of unparseable (but decodable) files by path, so secrets in them are still found. */
  problemTexts?: Record<string, string>;
  now: Date;
  /** A token counter, or a function loading one (called only when a file could be over a limit). */
  tokens?: TokenCounter | (() => Promise<TokenCounter>);
  /** Results kept between runs (see LintMemo). */
  memo?: LintMemo;
  /** Drift from git (see RuleContext). */
  drift?: Map<string, Drift> | Promise<Map<string, Drift>>;
  outsideAnchors?: Map<string, string[]>;
  /** Called before each rule runs (for a spinner). */
  onProgress?: (ruleId: string, done: number, total: number) => void;
}

export interface LintResult {
  findings: Finding[];
  errorCount: number;
  warningCount: number;
  fixableErrorCount: number;
  fixableWarningCount: number;
  /** Paths checked (memory files, unreadable files, MEMORY.md), relative to the memory directory. */
  checked: string[];
}
