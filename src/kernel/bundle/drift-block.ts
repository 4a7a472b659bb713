/**
 * The SessionStart bundle's block of drifted memories (issue 35): one line per memory (its path and what
 * changed since it was verified), at most DRIFT_BLOCK_LINES, then a pointer to the command that lists
 * them all (`memctx lint`). Pure: the drift comes in, the text goes out.
 */
import { describeDrift, type Drift } from '../drift/drift.js';
import { codePath, inlineMarkdown } from '../markdown/escape.js';
import type { BundleFormat } from './render.js';
import { countJoined } from '../tokens/join.js';

/** Memories listed by name before the block points at `memctx lint`. */
const DRIFT_BLOCK_LINES = 5;

/** The CLI's lint has no rule filter: it lists every finding, drifted memories as `content/drifted`. */
const LIST_ALL = 'memctx lint';

function what(drift: Drift): string {
  return drift.state === 'unknown' ? `drift unknown: ${drift.reason}` : describeDrift(drift);
}

/** The block's lines: "path — what changed", in path order, then the rest are counted. */
function driftBlockLines(drift: ReadonlyMap<string, Drift>, limit = DRIFT_BLOCK_LINES): { path: string; what: string }[] {
  const paths = [...drift.keys()].sort();
  return paths.slice(0, limit).map((path) => ({ path, what: what(drift.get(path)!) }));
}

/** The block in the bundle's format, or '' when nothing drifted; inserted after the bundle's header. */
export function driftBlock(format: BundleFormat, drift: ReadonlyMap<string, Drift>, memctx = 'memctx', limit = DRIFT_BLOCK_LINES): string {
  if (drift.size === 0) return '';
  const lines = driftBlockLines(drift, limit);
  const more = drift.size - lines.length;
  const listAll = memctx === 'memctx' ? LIST_ALL : LIST_ALL.replace('memctx', memctx);
  const howTo = `Check each against the code before acting on it, then \`${memctx} verify PATH\`.`;
  if (format === 'json') {
    return `,"drifted":${JSON.stringify({ files: lines, more, check: howTo, listAll })}\n`;
  }
  if (format === 'xml') {
    const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
    const items = lines.map((l) => `<memory path="${esc(l.path)}">${esc(l.what)}</memory>\n`).join('');
    return `<drifted more="${more}" check="${esc(howTo)}" list-all="${esc(listAll)}">\n${items}</drifted>\n`;
  }
  const items = lines.map((l) => `- \`${codePath(l.path)}\` — ${inlineMarkdown(l.what)}\n`).join('');
  const tail = more > 0 ? `- … and ${more} more: \`${listAll}\` lists them (rule content/drifted)\n` : '';
  return `\n## Drifted memories\n\nThe code these memories name changed since they were verified. ${howTo}\n\n${items}${tail}`;
}

/**
 * The bundle with the block after its header: its parts, exact token count and text follow; the budget
 * stays the one asked for (selection was given the budget less the block's tokens).
 */
export function withDriftBlock<R extends { tokens: number; budget: number; text: string }>(result: R, parts: readonly string[], block: string, budget: number, count: (text: string) => number): readonly string[] {
  if (block === '' || parts.length === 0) return parts;
  // The JSON and XML headers name the budget: the one asked for, not selection's share of it.
  const header = parts[0].replace(/("budget":|budget=")\d+/, `$1${budget}`);
  const all = [header, block, ...parts.slice(1)];
  let joined: string | undefined;
  Object.defineProperty(result, 'text', { get: () => (joined ??= all.join('')), enumerable: true, configurable: true });
  result.tokens = countJoined(all, count);
  result.budget = budget;
  return all;
}
