/** `pack`'s input, defaults and result shape: one definition for the CLI flags, the MCP tool and the library. */
import * as v from 'valibot';
import { MemctxError } from '../../kernel/errors.js';
import { PROFILE_NAMES, PROFILES, type ProfileName } from '../../kernel/bundle/profiles.js';
import { DEFAULT_BUDGET, parseBudget, resolveWindow } from '../../kernel/bundle/budget.js';
import { ENCODINGS, DEFAULT_ENCODING, type EncodingName } from '../../kernel/tokens/encodings.js';
import { ARG_LABEL, choice, flag, parseInput, text, texts, tokenSize, whole, words, type Label } from '../../kernel/schema.js';

const PACK_FORMATS = ['markdown', 'xml', 'json'] as const;

export const PackInput = v.strictObject({
  task: v.optional(words('what the next work is about; matching files rank first')),
  budget: v.optional(tokenSize(`token cap on the whole bundle: 8000, "8k", or "5%" of window/model (default: the profile's, else ${DEFAULT_BUDGET})`)),
  window: v.optional(tokenSize('the context window, for a percentage budget')),
  model: v.optional(text('take the context window from a model id (claude-…, gpt-4o, gpt-5, gemini-2.5, …)')),
  profile: v.optional(choice(PROFILE_NAMES, 'a preset: budget and the files loaded first')),
  focus: v.optional(texts('memory files, or paths memory files mention, to treat as active')),
  format: v.optional(choice(PACK_FORMATS, 'bundle format (default markdown)')),
  encoding: v.optional(choice(ENCODINGS, `tokenizer (default ${DEFAULT_ENCODING})`)),
  redact_secrets: v.optional(flag('mask possible secrets in the bundle (default true; always on through MCP)')),
});
export type PackInput = v.InferInput<typeof PackInput>;

/** What the MCP `pack` tool takes: the bundle is always Markdown in o200k_base tokens, secrets always masked. */
export const PackToolInput = v.strictObject({
  task: PackInput.entries.task,
  budget: PackInput.entries.budget,
  window: PackInput.entries.window,
  model: PackInput.entries.model,
  profile: PackInput.entries.profile,
  focus: PackInput.entries.focus,
});

export interface PackRequest {
  task?: string;
  budget: number;
  focus?: string[];
  profile?: ProfileName;
  format: (typeof PACK_FORMATS)[number];
  encoding: EncodingName;
  redactSecrets: boolean;
}

/** Check a pack input and settle its defaults: the budget in tokens, the profile's rules. */
export function resolvePack(input: unknown, label: Label = ARG_LABEL, schema: v.GenericSchema = PackInput): PackRequest {
  const given = parseInput(schema, input, label) as PackInput;
  const asText = (n: number | string | undefined) => (n === undefined ? undefined : String(n));
  const window = resolveWindow({ window: asText(given.window), model: given.model }, label);
  const profile = given.profile ? PROFILES[given.profile] : undefined;
  const budget = given.budget !== undefined ? parseBudget(String(given.budget), window, label('budget')) : profile?.budget ?? DEFAULT_BUDGET;
  if (profile?.taskOnly && given.task === undefined && !given.focus?.length) {
    throw new MemctxError(`${label('profile')} ${profile.name} packs only what the task reaches, and no ${label('task')} or ${label('focus')} was given`, { hint: `add ${label('task')} TEXT or ${label('focus')} FILE` });
  }
  return {
    task: given.task,
    budget,
    focus: given.focus,
    profile: profile?.name,
    format: given.format ?? 'markdown',
    encoding: given.encoding ?? DEFAULT_ENCODING,
    redactSecrets: given.redact_secrets ?? true,
  };
}

const PackedFile = v.looseObject({
  path: v.string(),
  score: v.number(),
  tier: v.string(),
  tokens: v.number(),
});

/** The report `pack` returns beside the bundle (the MCP tool's structured content). */
export const PackOutput = v.looseObject({
  budget: whole('the token cap', 1),
  tokens: whole("the bundle's exact token count", 0),
  format: v.string(),
  encoding: v.string(),
  files: v.pipe(v.array(PackedFile), v.description('the files in rank order with their score, tier and tokens (through MCP at most 100; notListed counts the rest)')),
  leftOut: v.object({ files: v.array(v.string()), indexLines: v.number() }),
  pinnedLeftOut: v.array(v.string()),
  totalFileTokens: v.number(),
  saved: v.number(),
  profile: v.nullable(v.string()),
  task: v.nullable(v.string()),
  warnings: v.array(v.string()),
  /** Entries of the lists above not listed (an answer lists at most 100 of each), and how to narrow. */
  notListed: v.optional(v.nullable(v.object({ files: v.number(), leftOutFiles: v.number(), pinnedLeftOut: v.number(), warnings: v.number(), hint: v.string() }))),
});
