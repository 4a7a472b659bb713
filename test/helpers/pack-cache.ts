import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACK_CACHE_FILE, PACK_ROWS } from '../../src/kernel/rank/cache.js';
import { cacheVersion } from '../../src/kernel/state/stat-cache.js';
import { decodeTable, encodeTable } from '../../src/kernel/state/table.js';
import { stateOf } from './cli.js';

/** A pack cache record as a test reads it: its stat key, and its value (fields it lacks left out) or its problem. */
export interface PackRecord {
  key: string;
  value?: Record<string, unknown> & { path: string; links?: string[] };
  problem?: unknown;
}

/** Where a pack cache row's fields start: after its path and the stat key's four numbers (stat-cache.ts). */
const FIELDS_AT = 5;

/** The pack cache of a memory directory: its records by path, each value decoded from its row. */
export function packRecords(root: string): Record<string, PackRecord> {
  const data = decodeTable(readFileSync(join(stateOf(root), PACK_CACHE_FILE)), cacheVersion());
  if (!data) throw new Error(`no pack cache of this build in ${stateOf(root)}`);
  const records = { ...(data.records as Record<string, PackRecord>) };
  for (const row of data.rows) {
    const value = Object.fromEntries(Object.entries(PACK_ROWS.fromRow(row, FIELDS_AT) as object).filter(([, v]) => v !== undefined)) as PackRecord['value'];
    records[row[0] as string] = { key: row.slice(1, FIELDS_AT).join(':'), value };
  }
  return records;
}

/** Write a pack cache holding these records (this build's), each value as its row. */
export function writePackRecords(root: string, records: Record<string, PackRecord>): void {
  const problems = Object.fromEntries(Object.entries(records).filter(([, r]) => r.value === undefined));
  const rows = Object.entries(records).flatMap(([path, r]) => (r.value === undefined ? [] : [[path, ...r.key.split(':').map(Number), ...PACK_ROWS.toRow(r.value as never)]]));
  writeFileSync(join(stateOf(root), PACK_CACHE_FILE), encodeTable(cacheVersion(), problems, rows));
}
