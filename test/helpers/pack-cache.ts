import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACK_CACHE_FILE, PACK_ROWS } from '../../src/kernel/rank/cache.js';
import { stateOf } from './cli.js';

/** A pack cache record as a test reads it: its stat key, and its value (fields it lacks left out) or its problem. */
export interface PackRecord {
  key: string;
  value?: Record<string, unknown> & { path: string; links?: string[] };
  problem?: unknown;
}

/** The pack cache of a memory directory: its records by path, each value decoded from its row. */
export function packRecords(root: string): Record<string, PackRecord> {
  const data = JSON.parse(readFileSync(join(stateOf(root), PACK_CACHE_FILE), 'utf8')) as { records: Record<string, PackRecord>; rows: unknown[][] };
  const records = { ...data.records };
  for (const row of data.rows) {
    const value = Object.fromEntries(Object.entries(PACK_ROWS.fromRow(row, 2) as object).filter(([, v]) => v !== undefined)) as PackRecord['value'];
    records[row[0] as string] = { key: row[1] as string, value };
  }
  return records;
}

/** Write a pack cache holding these records (its version as it was), each value as its row. */
export function writePackRecords(root: string, records: Record<string, PackRecord>): void {
  const path = join(stateOf(root), PACK_CACHE_FILE);
  const { version } = JSON.parse(readFileSync(path, 'utf8')) as { version: string };
  const problems = Object.fromEntries(Object.entries(records).filter(([, r]) => r.value === undefined));
  const rows = Object.entries(records).flatMap(([path, r]) => (r.value === undefined ? [] : [[path, r.key, ...PACK_ROWS.toRow(r.value as never)]]));
  writeFileSync(path, JSON.stringify({ version, records: problems, rows }));
}
