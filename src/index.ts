/**
 * memctx's public library API: what docs/library.md documents. The CLI is built on the
 * same functions; everything else is internal (the memory tool is also `memctx/memory-tool`).
 */

// errors: every refusal is a MemctxError (message, file, line, hint, exit code)
export { MemctxError, EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE } from './kernel/errors.js';
export type { ErrorDetails } from './kernel/errors.js';

// the memory directory
export { findMemoryDir } from './kernel/store/find.js';
export type { FindOptions } from './kernel/store/find.js';
export { scanMemoryDir } from './kernel/store/scan.js';
export type { MemoryFile, FileProblem, ScanResult } from './kernel/store/types.js';

// pack: score the files, then fit them to a token budget
export { loadTokenCounter } from './kernel/tokens/index.js';
export type { TokenCounter } from './kernel/tokens/index.js';
export { scoreFiles, packBundle } from './commands/pack/index.js';
export type { FileScore, ScoreOptions, PackInput, PackResult, PackedFile } from './commands/pack/index.js';

// lint
export { runLint, RULES, resolveLintConfig, defaultLintConfig } from './kernel/lint/index.js';
export type { Finding, LintConfig, LintInput, LintResult, LintRule } from './kernel/lint/index.js';

// agents: Anthropic's memory-tool commands over a memory directory (also `memctx/memory-tool`)
export { memoryToolHandlers, MemoryToolError } from './memory-tool.js';

// one schema per operation (valibot): the CLI, the MCP tools and library callers check inputs with these
export { PackInput as PackInputSchema, PackToolInput as PackToolInputSchema, PackOutput as PackOutputSchema, resolvePack } from './commands/pack/schema.js';
export type { PackRequest } from './commands/pack/schema.js';
export { SearchInput as SearchInputSchema, SearchOutput as SearchOutputSchema } from './commands/search/schema.js';
export { MemoryInput as MemoryInputSchema } from './commands/memory/schema.js';
export { StatusOptions as StatusOptionsSchema, StatusInput as StatusInputSchema, StatusOutput as StatusOutputSchema, resolveStatus } from './kernel/capacity/schema.js';
export type { StatusRequest } from './kernel/capacity/schema.js';
export { FlushOptions as FlushOptionsSchema, FlushInput as FlushInputSchema, FlushOutput as FlushOutputSchema, resolveFlush } from './commands/flush/schema.js';
export type { FlushRequest } from './commands/flush/schema.js';
export { LintOptions as LintOptionsSchema, LintInput as LintInputSchema, LintOutput as LintOutputSchema } from './commands/lint/schema.js';
export { parseInput, CLI_LABEL, ARG_LABEL } from './kernel/schema.js';
export type { Label } from './kernel/schema.js';
