/** Session flush: templates, inputs, transcript extraction, the 50-line rule and token targets. */
export { SESSION_FIELDS, normalizeKey, mergeSources, type FieldValues, type FieldSource } from '../../kernel/summary/fields.js';
export { BUILT_IN_TEMPLATES, BUILT_IN_TEMPLATE_TEXT, KNOWN_FIELDS, builtInTemplate, userTemplate, isBuiltInTemplate, isTemplateName, findPlaceholders, TemplateError, type Template, type FieldSpec } from '../../kernel/summary/templates.js';
export { summarizeBlock, MAX_BLOCK_LINES } from '../../kernel/summary/blocks.js';
export { renderBody, parseBody, NONE_RECORDED } from '../../kernel/summary/render.js';
export { shortenToFit, describeCut, type Cut } from '../../kernel/summary/shorten.js';
export { extractFromTranscript, markedLines, transcriptFields, type Extracted, type ExtractItem, type TranscriptFields } from './extract.js';
export { summarizeSource, isSourcePath } from './source-summary.js';
export { planFlush, resolveFields, headingOf, renderFlushFile, plannedPath, usesId, slugify, fileStamp, type FlushPlan, type PlanInput, type SessionMeta } from '../../kernel/summary/record.js';
export { DEFAULT_TARGET, DEFAULT_MAX } from '../../kernel/summary/limits.js';
export { givenEntries, transcriptEntries, gitEntries, uniqueEntries, changedLine, type ChangedEntry, type ChangedScope } from '../../kernel/summary/changed.js';
export { parseHookInput, HookInputError, type HookInput } from '../../kernel/summary/hook-input.js';
