export { searchMemory } from './rank.js';
export type { SearchHit, SearchOptions, SearchFilters } from './rank.js';
