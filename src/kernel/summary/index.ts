/** Session flush: templates, inputs, transcript extraction, the 50-line rule and token targets. */
export { SESSION_FIELDS, normalizeKey, mergeSources, type FieldValues, type FieldSource } from './fields.js';
export { parseFieldsText, detectFormat, FlushInputError, type ParsedInput, type InputFormat } from '../../commands/flush/input.js';
export { BUILT_IN_TEMPLATES, BUILT_IN_TEMPLATE_TEXT, KNOWN_FIELDS, builtInTemplate, userTemplate, isBuiltInTemplate, isTemplateName, findPlaceholders, TemplateError, type Template, type FieldSpec } from './templates.js';
export { summarizeBlock, MAX_BLOCK_LINES } from './blocks.js';
export { renderBody, parseBody, NONE_RECORDED } from './render.js';
export { shortenToFit, describeCut, type Cut } from './shorten.js';
export { extractFromTranscript, markedLines, transcriptFields, type Extracted, type ExtractItem, type TranscriptFields } from '../../commands/flush/extract.js';
export { summarizeSource, isSourcePath } from '../../commands/flush/source-summary.js';
export { planFlush, resolveFields, headingOf, renderFlushFile, plannedPath, usesId, slugify, fileStamp, DEFAULT_TARGET, DEFAULT_MAX, type FlushPlan, type PlanInput, type SessionMeta } from './record.js';
export { givenEntries, transcriptEntries, gitEntries, uniqueEntries, changedLine, type ChangedEntry, type ChangedScope } from '../../commands/flush/changed.js';
export { parseHookInput, HookInputError, type HookInput } from './hook-input.js';
export { WRITTEN_BY_AGENT, REVISED_NOTE, laterFacts, completeAgentValues } from './agent-summary.js';
