/** `search`'s input and result shape, for the MCP tool and the library (the CLI's flags carry the same names). */
import * as v from 'valibot';
import { MEMORY_KINDS, MEMORY_TYPES } from '../../kernel/store/schema.js';
import { text, whole, words } from '../../kernel/schema.js';

/** The most hits one search returns: an answer stays small whatever the memory's size. */
const MAX_SEARCH_LIMIT = 100;

export const SearchInput = v.strictObject({
  query: words('words to look for'),
  limit: v.optional(whole(`at most this many hits (default 10, at most ${MAX_SEARCH_LIMIT})`, 1, MAX_SEARCH_LIMIT)),
  type: v.optional(text(`only this type: ${[...MEMORY_TYPES, 'other'].join(', ')} (or a configured one)`)),
  kind: v.optional(text(`only this kind: ${MEMORY_KINDS.join(', ')}`)),
  tag: v.optional(text('only files with this tag')),
  min_importance: v.optional(whole('only files with importance at least this (1-10)', 1, 10)),
  since: v.optional(text('only files updated since a date (2026-11-01) or a period back from now (12h, 7d, 2w)')),
});

const nullableText = v.nullable(v.string());

const SearchHit = v.object({
  path: v.string(),
  name: v.string(),
  description: v.string(),
  type: v.string(),
  kind: nullableText,
  importance: v.number(),
  updated: nullableText,
  score: v.number(),
  factors: v.object({ text: v.number(), importance: v.number(), recency: v.number(), access: v.number() }),
  superseded: nullableText,
});

export const SearchOutput = v.object({ hits: v.array(SearchHit) });
