import { createRequire } from 'node:module';
import { parseSimpleYaml } from './simple-yaml.js';

type YamlModule = typeof import('yaml');
let yamlModule: YamlModule | undefined;

/** The `yaml` package, loaded on first use: most frontmatter never needs it (see simple-yaml.ts). */
export function loadYaml(): YamlModule {
  yamlModule ??= createRequire(import.meta.url)('yaml') as YamlModule;
  return yamlModule;
}

/** Aliases beyond this count are refused (a "billion laughs" block expands without bound). */
export const MAX_ALIAS_COUNT = 100;

/** A YAML problem with a 1-based line inside the block. */
export class YamlFailure extends Error {
  constructor(message: string, readonly line: number | undefined, readonly hint?: string) {
    super(message);
    this.name = 'YamlFailure';
  }
}

/** Parse a frontmatter block to a plain mapping, safely: core schema, bounded aliases, no `__proto__`. */
export function parseFrontmatterYaml(src: string): Record<string, unknown> {
  const simple = parseSimpleYaml(src);
  if (simple) return simple;
  const { LineCounter, parseDocument } = loadYaml();
  const lineCounter = new LineCounter();
  const doc = parseDocument(src, { lineCounter, uniqueKeys: true, merge: false, prettyErrors: true });
  const error = doc.errors[0];
  if (error) {
    const line = error.linePos?.[0]?.line;
    throw new YamlFailure(`invalid YAML: ${error.message.split('\n')[0]}`, line, 'fix the YAML syntax');
  }
  rejectProtoKeys(doc, lineCounter);
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (err) {
    if (err instanceof ReferenceError || /alias/i.test(String(err))) {
      throw new YamlFailure('YAML aliases expand too far (a possible alias bomb); refused', undefined, 'remove the &anchors and *aliases');
    }
    throw new YamlFailure(`invalid YAML: ${(err as Error).message}`, undefined, 'fix the YAML syntax');
  }
  if (data === null || data === undefined) return {};
  if (!loadYaml().isMap(doc.contents) || typeof data !== 'object' || Array.isArray(data)) {
    throw new YamlFailure('frontmatter must be a mapping of `key: value` lines', 1, 'write the frontmatter as key: value pairs');
  }
  return data as Record<string, unknown>;
}

function rejectProtoKeys(doc: import('yaml').Document, lineCounter: import('yaml').LineCounter): void {
  const { visit, isScalar } = loadYaml();
  visit(doc, {
    Pair(_key, pair) {
      if (isScalar(pair.key) && pair.key.value === '__proto__') {
        const offset = pair.key.range?.[0];
        const line = offset === undefined ? undefined : lineCounter.linePos(offset).line;
        throw new YamlFailure('the key `__proto__` is not allowed', line, 'rename or remove that key');
      }
    },
  });
}
