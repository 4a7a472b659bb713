/**
 * Which usage thresholds the agent was already asked to save its summary at, per session
 * (checkpoints.json in the state folder), so a Stop hook asks once per threshold crossing.
 */
import { stateDir } from '../../kernel/state/folder.js';
import { readSessionRecords, writeSessionRecord } from '../../kernel/state/session-records.js';

const CHECKPOINTS_FILE = 'checkpoints.json';

interface Asked {
  asked: number[];
  at: string;
}

const validAsked = ({ asked, at }: Record<string, unknown>): Asked | undefined =>
  Array.isArray(asked) && asked.every((t) => typeof t === 'number') && typeof at === 'string' ? { asked, at } : undefined;

/** The thresholds already asked for in this session; a missing or corrupt file reads as none. */
export function readAsked(root: string, sessionId: string): number[] {
  return readSessionRecords(stateDir(root), CHECKPOINTS_FILE, validAsked)[sessionId]?.asked ?? [];
}

/** Record the thresholds asked for in a session, under the memory lock; false when there is no cache folder. */
export async function writeAsked(root: string, sessionId: string, asked: number[], at: string): Promise<boolean> {
  const dir = stateDir(root);
  if (!dir) return false;
  await writeSessionRecord(root, dir, CHECKPOINTS_FILE, sessionId, { asked, at }, { valid: validAsked });
  return true;
}
