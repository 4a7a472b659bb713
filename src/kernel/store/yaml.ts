import { createRequire } from 'node:module';
import type { Document, LineCounter, Node } from 'yaml';
import { parseSimpleYaml } from './simple-yaml.js';

type YamlModule = typeof import('yaml');
let yamlModule: YamlModule | undefined;

/** The `yaml` package, loaded on first use: most frontmatter never needs it (see simple-yaml.ts). */
export function loadYaml(): YamlModule {
  yamlModule ??= createRequire(import.meta.url)('yaml') as YamlModule;
  return yamlModule;
}

/** Aliases beyond this count are refused (a "billion laughs" block expands without bound). */
const MAX_ALIAS_COUNT = 100;

/** A YAML problem with a 1-based line inside the block. */
export class YamlFailure extends Error {
  constructor(message: string, readonly line: number | undefined, readonly hint?: string) {
    super(message);
    this.name = 'YamlFailure';
  }
}

export interface ParsedYaml {
  doc: Document;
  lineCounter: LineCounter;
  data: unknown;
}

/**
 * The one YAML entry point: parse `src` safely (bounded aliases, no `__proto__`, unique keys, no
 * merge keys). Every problem is a YamlFailure with its line; `name` is the format named in messages.
 */
export function parseYamlSafely(src: string, options: { schema?: 'core' | 'json'; name?: string } = {}): ParsedYaml {
  const { LineCounter, parseDocument } = loadYaml();
  const name = options.name ?? 'YAML';
  const lineCounter = new LineCounter();
  const doc = parseDocument(src, { lineCounter, uniqueKeys: true, merge: false, prettyErrors: true, logLevel: 'error', schema: options.schema ?? 'core' });
  const error = doc.errors[0];
  if (error) {
    const line = error.linePos?.[0]?.line;
    const message = error.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
    throw new YamlFailure(`invalid ${name}: ${message}`, line, `fix the ${name} syntax`);
  }
  const firstAlias = checkNodes(doc, lineCounter);
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (err) {
    if (err instanceof ReferenceError || /alias/i.test(String(err))) {
      throw new YamlFailure('YAML aliases expand too far (a possible alias bomb); refused', firstAlias, 'remove the &anchors and *aliases');
    }
    throw new YamlFailure(`invalid ${name}: ${(err as Error).message}`, undefined, `fix the ${name} syntax`);
  }
  return { doc, lineCounter, data };
}

/** Parse a frontmatter block to a plain mapping, safely: core schema, bounded aliases, no `__proto__`. */
export function parseFrontmatterYaml(src: string): Record<string, unknown> {
  const simple = parseSimpleYaml(src);
  if (simple) return simple;
  const { doc, data } = parseYamlSafely(src);
  if (data === null || data === undefined) return {};
  if (!loadYaml().isMap(doc.contents) || typeof data !== 'object' || Array.isArray(data)) {
    throw new YamlFailure('frontmatter must be a mapping of `key: value` lines', 1, 'write the frontmatter as key: value pairs');
  }
  return data as Record<string, unknown>;
}

/** The line a parsed YAML node starts on. */
export function nodeLine(lineCounter: LineCounter, node: { range?: unknown } | null | undefined): number | undefined {
  const offset = (node?.range as number[] | null | undefined)?.[0];
  return offset === undefined ? undefined : lineCounter.linePos(offset).line;
}

/**
 * One pass over the document: refuse `__proto__` keys (written, or reached through an alias), aliases
 * with no anchor before them and aliases inside the value they refer to. Returns the first alias's line.
 */
function checkNodes(doc: Document, lineCounter: LineCounter): number | undefined {
  const { visit, isAlias, isScalar } = loadYaml();
  const anchors = new Map<string, unknown>();
  let first: number | undefined;
  visit(doc, {
    Pair(_key, pair) {
      const key = isAlias(pair.key) ? anchors.get(pair.key.source) : pair.key;
      if (isScalar(key) && key.value === '__proto__') {
        throw new YamlFailure('the key `__proto__` is not allowed', nodeLine(lineCounter, pair.key as Node), 'rename or remove that key');
      }
    },
    Node(_key, node, path) {
      if (!isAlias(node)) {
        if (node.anchor) anchors.set(node.anchor, node);
        return;
      }
      const line = nodeLine(lineCounter, node);
      first ??= line;
      if (!anchors.has(node.source)) {
        throw new YamlFailure(`the alias *${node.source} has no anchor &${node.source} before it`, line, 'define the anchor first, or quote the value');
      }
      if (path.some((parent) => (parent as { anchor?: string }).anchor === node.source)) {
        throw new YamlFailure(`the alias *${node.source} refers to a value that contains it (a circular reference)`, line, 'remove the alias');
      }
    },
  });
  return first;
}
