/**
 * The rank table of an encoding, read from a file written at build time (`npm run build` runs
 * scripts/build-ranks.mjs) in a few milliseconds, or else built from js-tiktoken's rank module
 * (about 0.1 s). The file records the js-tiktoken version it was made from and is ignored when that
 * differs from the one installed, or when it is damaged: the table is then built as usual.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildRankTable, type RankFile, type RankTable } from './bpe.js';
import type { EncodingName } from './encodings.js';
const { existsSync, readFileSync, statSync } = process.getBuiltinModule('node:fs');

const MAGIC = 'memctx-ranks/1';

interface Header {
  magic: string;
  encoding: EncodingName;
  tiktoken: string;
  patStr: string;
  tokens: number;
  bytes: number;
  slots: number;
  maxTokenBytes: number;
}

export interface LoadedRanks {
  table: RankTable;
  /** The encoding's split pattern (js-tiktoken's `pat_str`). */
  patStr: string;
  /** Where the table came from. */
  source: 'file' | 'js-tiktoken';
}

const requireHere = createRequire(import.meta.url);

/**
 * js-tiktoken's rank module for an encoding: found as Node finds a package (the node_modules folders
 * upward from here, then its `exports`), which takes a tenth of require.resolve's 2 ms; require.resolve
 * when that finds nothing. With the package's version when its manifest was read.
 */
function rankModule(encoding: EncodingName): { path: string; version?: string } {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const manifest = join(dir, 'node_modules', 'js-tiktoken', 'package.json');
    if (existsSync(manifest)) {
      try {
        const { exports, version } = JSON.parse(readFileSync(manifest, 'utf8')) as { exports?: Record<string, { require?: unknown } | undefined>; version?: unknown };
        const target = exports?.[`./ranks/${encoding}`]?.require;
        if (typeof target === 'string') return { path: join(dir, 'node_modules', 'js-tiktoken', target), version: typeof version === 'string' ? version : undefined };
      } catch {
        // Unreadable: let Node resolve it.
      }
      break;
    }
    if (dirname(dir) === dir) break;
  }
  return { path: requireHere.resolve(`js-tiktoken/ranks/${encoding}`) };
}

/** The installed js-tiktoken's version and the size of the encoding's rank module: what a table file must match. */
function tiktokenVersion(encoding: EncodingName): string {
  // The manifest that named the module gives the version (read once); else the one above the module.
  const { path: ranks, version: found } = rankModule(encoding);
  if (found !== undefined) return `${found} ${statSync(ranks).size}`;
  for (let dir = dirname(ranks), i = 0; i < 4; dir = dirname(dir), i++) {
    const manifest = join(dir, 'package.json');
    if (!existsSync(manifest)) continue;
    const { name, version } = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string };
    if (name === 'js-tiktoken') return `${version} ${statSync(ranks).size}`;
  }
  return `unknown ${statSync(ranks).size}`;
}

/** The table file's name; it sits beside the built module (dist/src/kernel/tokens/). */
export const rankFileName = (encoding: EncodingName) => `${encoding}.ranks`;

/** The table as a file: a JSON header line, then offsets, slots and bytes, each 4-byte aligned. */
export function serializeRankTable(table: RankTable, encoding: EncodingName, patStr: string, tiktoken = tiktokenVersion(encoding)): Buffer {
  const header: Header = { magic: MAGIC, encoding, tiktoken, patStr, tokens: table.offsets.length - 1, bytes: table.bytes.length, slots: table.slots.length, maxTokenBytes: table.maxTokenBytes };
  let head = Buffer.from(`${JSON.stringify(header)}\n`, 'utf8');
  head = Buffer.concat([head, Buffer.alloc((4 - (head.length % 4)) % 4, ' ')]);
  return Buffer.concat([head, Buffer.from(table.offsets.buffer, table.offsets.byteOffset, table.offsets.byteLength), Buffer.from(table.slots.buffer, table.slots.byteOffset, table.slots.byteLength), Buffer.from(table.bytes.buffer, table.bytes.byteOffset, table.bytes.byteLength)]);
}

/** The table in a file's contents, or undefined when the contents are not such a table (or not for this js-tiktoken). */
export function parseRankTable(data: Buffer, encoding: EncodingName, tiktoken = tiktokenVersion(encoding)): { table: RankTable; patStr: string } | undefined {
  const newline = data.indexOf(10);
  if (newline < 0 || newline > 4096) return undefined;
  let header: Header;
  try {
    header = JSON.parse(data.subarray(0, newline).toString('utf8')) as Header;
  } catch {
    return undefined;
  }
  if (header.magic !== MAGIC || header.encoding !== encoding || header.tiktoken !== tiktoken || typeof header.patStr !== 'string') return undefined;
  const start = Math.ceil((newline + 1) / 4) * 4;
  const offsetsBytes = (header.tokens + 1) * 4;
  const slotsBytes = header.slots * 4;
  if (!(header.tokens > 0 && header.slots > header.tokens && (header.slots & (header.slots - 1)) === 0)) return undefined;
  if (data.length !== start + offsetsBytes + slotsBytes + header.bytes) return undefined;
  // Typed arrays need aligned views: copy once when the buffer is not (a pooled Buffer).
  const own = data.byteOffset % 4 === 0 ? data : Buffer.from(data);
  const base = own.byteOffset;
  const offsets = new Uint32Array(own.buffer, base + start, header.tokens + 1);
  const slots = new Int32Array(own.buffer, base + start + offsetsBytes, header.slots);
  const bytes = new Uint8Array(own.buffer, base + start + offsetsBytes + slotsBytes, header.bytes);
  if (offsets[header.tokens] !== header.bytes) return undefined;
  return { table: { bytes, offsets, slots, maxTokenBytes: header.maxTokenBytes }, patStr: header.patStr };
}

/** js-tiktoken's rank module for an encoding (a synchronous require). */
export function requireRankFile(encoding: EncodingName): RankFile {
  return requireHere(`js-tiktoken/ranks/${encoding}`) as RankFile;
}

/** Where a file the build puts beside the tokenizer's modules may be: beside this one, or (from a bundle in dist/cli/, or the sources under test) in dist/src/kernel/tokens/. */
export function builtFiles(name: string): URL[] {
  return [`./${name}`, `../../dist/src/kernel/tokens/${name}`, `../../../dist/src/kernel/tokens/${name}`].map((rel) => new URL(rel, import.meta.url));
}

/** The encoding's rank table: from the build's file when it is there and current, else from js-tiktoken. */
export function loadRanks(encoding: EncodingName, files: readonly URL[] = builtFiles(rankFileName(encoding))): LoadedRanks {
  for (const url of files) {
    if (!existsSync(url)) continue;
    try {
      const parsed = parseRankTable(readFileSync(url), encoding);
      if (parsed) return { ...parsed, source: 'file' };
    } catch {
      // Unreadable: build the table instead.
    }
  }
  const file = requireRankFile(encoding);
  return { table: buildRankTable(file), patStr: file.pat_str, source: 'js-tiktoken' };
}
