/** memctx's public library API. The CLI is built on the same functions. */

// store
export { MemctxError, EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE } from './errors.js';
export type { ErrorDetails } from './errors.js';
export { parseDate } from './dates.js';
export { findMemoryDir, claudeMemoryDir } from './store/find.js';
export type { FindOptions } from './store/find.js';
export { scanMemoryDir, readMemoryFile, listMemoryPaths } from './store/scan.js';
export { parseMemoryText, ParseFailure } from './store/parse.js';
export type { FileStat } from './store/parse.js';
export { serializeMemoryFile, setFrontmatterKeys } from './store/serialize.js';
export { resolveMemoryPath } from './store/paths.js';
export type { SafePath } from './store/paths.js';
export type { MemoryFile, MemoryLink, FileProblem, ScanResult, FileFormat, IndexEntry } from './store/types.js';
export { markdownLinks, memoryLinks } from './markdown/links.js';
export type { TextLink } from './markdown/links.js';

// memindex
export { renderIndexFile, diffIndex, splitIndex } from './memindex/merge.js';
export { renderIndexBlock, indexLine } from './memindex/render.js';
export type { IndexOptions } from './memindex/render.js';
export type { IndexParts } from './memindex/merge.js';

// tokens
export { loadTokenCounter, DEFAULT_ENCODING } from './tokens/index.js';
export type { TokenCounter, EncodingName } from './tokens/index.js';
export { loadTokenCounterSync, tokenizerLoaded, ENCODINGS, CountCache, cachedCounter, contentHash, countJoined } from './tokens/index.js';
export type { CachedCounter } from './tokens/index.js';

// pack
export { scoreFiles, packBundle, profilePicks, PROFILES, PROFILE_NAMES, FORMATS, parseBudget, resolveBudgetWindow, modelWindow, fileText } from './pack/index.js';
export type { FileScore, ScoreOptions, PackInput, PackResult, PackedFile, Tier, Profile, ProfileName, BundleFormat } from './pack/index.js';
export { readCountCache, writeCountCache } from './cache/token-counts.js';
export type { LoadedCountCache } from './cache/token-counts.js';
export { readStats, recordAccess, accessCount } from './cache/stats.js';
export type { AccessStats } from './cache/stats.js';

// search
export { searchMemory } from './search/index.js';
export type { SearchHit, SearchOptions, SearchFilters } from './search/index.js';

// transcript and capacity
export { readTranscript, contextItems, detectFormat, readClaudeTranscript, readCodexTranscript, readOpenAiTranscript, readTextTranscript, createUsageScanner, changedFiles, TRANSCRIPT_FORMATS } from './transcript/index.js';
export type { Transcript, TranscriptItem, TranscriptFormat, TranscriptNote, RecordedUsage, ChangedFile, UsageScanner } from './transcript/index.js';
export { readTranscriptText, openTranscriptFile } from './sources/transcript-file.js';
export type { TranscriptFile } from './sources/transcript-file.js';
export { capacity, levelFor, atLeast, thresholdsProblem, ADVICE, LEVELS, DEFAULT_THRESHOLDS, MODEL_PRESETS, DEFAULT_WINDOW, modelPreset, resolveWindow, countTranscript } from './capacity/index.js';
export type { Level, Thresholds, Capacity, ModelPreset, ResolvedWindow, CountResult, CountedItem } from './capacity/index.js';
export { compactTranscript, missingMarkedLines } from './capacity/compact.js';
export type { CompactOptions, CompactResult, MarkedLine } from './capacity/compact.js';

// flush
export { planFlush, resolveFields, renderFlushFile, plannedPath, DEFAULT_TARGET, DEFAULT_MAX, builtInTemplate, userTemplate, BUILT_IN_TEMPLATES, BUILT_IN_TEMPLATE_TEXT, parseBody, parseFieldsText, extractFromTranscript, summarizeSource, summarizeBlock, parseHookInput, SESSION_FIELDS } from './flush/index.js';
export type { FlushPlan, PlanInput, Template, FieldValues, Extracted } from './flush/index.js';

// lint and lifecycle
export { runLint, RULES, findRule, resolveLintConfig, defaultLintConfig, ConfigError, DEFAULT_THRESHOLDS as DEFAULT_LINT_THRESHOLDS } from './lint/index.js';
export type { Finding, Fix, LintConfig, LintInput, LintResult, LintRule, RuleSetting, Severity, Thresholds as LintThresholds } from './lint/index.js';
export { FORMATTERS } from './lint/formatters/index.js';
export type { FormatOptions, Formatter } from './lint/formatters/index.js';
export { archiveCandidates, staleReasons } from './lifecycle/archive.js';
export type { ArchiveCandidate, ArchiveRule, ArchiveThresholds } from './lifecycle/archive.js';
export { loadConfig } from './sources/config.js';
export type { LoadedConfig } from './sources/config.js';

// hooks
export { planInstall, planUninstall, applyPlan, locateHook } from './hooks/install.js';
export type { HookPlan, HookAction, HookLocation, HookStatus, InstallOptions } from './hooks/install.js';
export { renderHookScript, isMemctxHook, HOOK_MARKER } from './hooks/script.js';
export { stagedPaths, onlyGeneratedEdits } from './hooks/staged.js';

// agents: Anthropic's memory-tool commands over a memory directory (also `memctx/memory-tool`)
export { memoryToolHandlers, runMemoryCommand, MemoryToolError, MEMORY_COMMANDS } from './memory-tool.js';
export type { MemoryCommand, MemoryCommandName, MemoryToolDeps } from './memory-tool.js';

// one schema per operation (valibot): the CLI, the MCP tools and library callers check inputs with these
export { PackInput as PackInputSchema, PackToolInput as PackToolInputSchema, PackOutput as PackOutputSchema, resolvePack, PACK_FORMATS } from './schemas/pack.js';
export type { PackRequest } from './schemas/pack.js';
export { SearchInput as SearchInputSchema, SearchOutput as SearchOutputSchema } from './schemas/search.js';
export { MemoryInput as MemoryInputSchema, parseMemoryCommand } from './schemas/memory.js';
export { StatusInput as StatusInputSchema, StatusOutput as StatusOutputSchema } from './schemas/status.js';
export { FlushInput as FlushInputSchema, FlushOutput as FlushOutputSchema } from './schemas/flush.js';
export { LintInput as LintInputSchema, LintOutput as LintOutputSchema } from './schemas/lint.js';
export { parseInput, CLI_LABEL, ARG_LABEL } from './schemas/fields.js';
export type { Label } from './schemas/fields.js';
