/**
 * memctx's public library API: what docs/library.md documents. The CLI is built on the
 * same functions; everything else is internal (the memory tool is also `memctx/memory-tool`).
 */

// errors: every refusal is a MemctxError (message, file, line, hint, exit code)
export { MemctxError, EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE } from './errors.js';
export type { ErrorDetails } from './errors.js';

// the memory directory
export { findMemoryDir } from './store/find.js';
export type { FindOptions } from './store/find.js';
export { scanMemoryDir } from './store/scan.js';
export type { MemoryFile, FileProblem, ScanResult } from './store/types.js';

// pack: score the files, then fit them to a token budget
export { loadTokenCounter } from './tokens/index.js';
export type { TokenCounter } from './tokens/index.js';
export { scoreFiles, packBundle } from './pack/index.js';
export type { FileScore, ScoreOptions, PackInput, PackResult, PackedFile } from './pack/index.js';

// lint
export { runLint, RULES, resolveLintConfig, defaultLintConfig } from './lint/index.js';
export type { Finding, LintConfig, LintInput, LintResult, LintRule } from './lint/index.js';

// agents: Anthropic's memory-tool commands over a memory directory (also `memctx/memory-tool`)
export { memoryToolHandlers, MemoryToolError } from './memory-tool.js';

// one schema per operation (valibot): the CLI, the MCP tools and library callers check inputs with these
export { PackInput as PackInputSchema, PackToolInput as PackToolInputSchema, PackOutput as PackOutputSchema, resolvePack } from './schemas/pack.js';
export type { PackRequest } from './schemas/pack.js';
export { SearchInput as SearchInputSchema, SearchOutput as SearchOutputSchema } from './schemas/search.js';
export { MemoryInput as MemoryInputSchema } from './schemas/memory.js';
export { StatusOptions as StatusOptionsSchema, StatusInput as StatusInputSchema, StatusOutput as StatusOutputSchema, resolveStatus } from './schemas/status.js';
export type { StatusRequest } from './schemas/status.js';
export { FlushOptions as FlushOptionsSchema, FlushInput as FlushInputSchema, FlushOutput as FlushOutputSchema, resolveFlush } from './schemas/flush.js';
export type { FlushRequest } from './schemas/flush.js';
export { LintOptions as LintOptionsSchema, LintInput as LintInputSchema, LintOutput as LintOutputSchema } from './schemas/lint.js';
export { parseInput, CLI_LABEL, ARG_LABEL } from './schemas/fields.js';
export type { Label } from './schemas/fields.js';
