/** memctx's public library API. The CLI is built on the same functions. */

// store
export { MemctxError, EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE } from './store/errors.js';
export { findMemoryDir, claudeMemoryDir } from './store/find.js';
export { scanMemoryDir, readMemoryFile, listMemoryPaths } from './store/scan.js';
export { parseMemoryText, ParseFailure } from './store/parse.js';
export { serializeMemoryFile, setFrontmatterKeys } from './store/serialize.js';
export { resolveMemoryPath } from './store/paths.js';
export type { MemoryFile, MemoryLink, FileProblem, ScanResult } from './store/types.js';

// memindex
export { renderIndexFile, diffIndex, splitIndex } from './memindex/merge.js';
export { renderIndexBlock, indexLine } from './memindex/render.js';

// tokens
export { loadTokenCounter, DEFAULT_ENCODING } from './tokens/index.js';
export type { TokenCounter, EncodingName } from './tokens/index.js';
export { loadTokenCounterSync, tokenizerLoaded, ENCODINGS, CountCache, cachedCounter, contentHash, countJoined } from './tokens/index.js';
export type { CachedCounter } from './tokens/index.js';

// pack (issue 3)
export { scoreFiles, packBundle, profilePicks, PROFILES, PROFILE_NAMES, FORMATS, parseBudget, resolveWindow, modelWindow, fileText } from './pack/index.js';
export type { FileScore, ScoreOptions, PackInput, PackResult, PackedFile, Tier, Profile, ProfileName, BundleFormat } from './pack/index.js';
export { readCountCache, writeCountCache } from './store/token-cache.js';
export { readStats, recordAccess, accessCount } from './store/stats.js';
export type { AccessStats } from './store/stats.js';

// search (issue 3)
export { searchMemory } from './search/index.js';
export type { SearchHit, SearchOptions, SearchFilters } from './search/index.js';

// transcript and capacity (issue 4)

// flush (issue 5)

// lint and lifecycle (issue 6)

// hooks
