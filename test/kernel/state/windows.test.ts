import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stateOf, tempDir } from '../../helpers/cli.js';
import { readSessionWindow, recordFolderWindow, recordSessionWindow } from '../../../src/kernel/state/windows.js';

/** A memory directory (MEMORY.md in it) with its state folder made. */
function memory(): { root: string; state: string } {
  const root = join(tempDir(), '.memory');
  mkdirSync(root);
  writeFileSync(join(root, 'MEMORY.md'), '# Memory\n');
  return { root, state: stateOf(root) };
}

describe('session windows', () => {
  it('records a window per session, writing only when it changed', async () => {
    const { root, state } = memory();
    expect(readSessionWindow(root, 's1')).toBeUndefined();
    expect(await recordSessionWindow(root, 's1', 200_000, '2026-11-21T10:00:00Z')).toBe(true);
    expect(await recordSessionWindow(root, 's1', 200_000, '2026-11-21T11:00:00Z')).toBe(false);
    expect(await recordSessionWindow(root, 's2', 1_000_000, '2026-11-21T12:00:00Z')).toBe(true);
    expect(await recordSessionWindow(root, 's1', 1_000_000, '2026-11-21T13:00:00Z')).toBe(true);
    expect([readSessionWindow(root, 's1'), readSessionWindow(root, 's2')]).toEqual([1_000_000, 1_000_000]);
    // The newest last.
    expect(JSON.parse(readFileSync(join(state, 'windows.json'), 'utf8'))).toEqual({
      sessions: { s2: { window: 1_000_000, at: '2026-11-21T12:00:00Z' }, s1: { window: 1_000_000, at: '2026-11-21T13:00:00Z' } },
    });
  });

  it('reads a corrupt file or a bad entry as no window', async () => {
    const { root, state } = memory();
    writeFileSync(join(state, 'windows.json'), '{ not json');
    expect(readSessionWindow(root, 's1')).toBeUndefined();
    writeFileSync(join(state, 'windows.json'), JSON.stringify({ sessions: { a: { window: 1.5, at: 'x' }, b: { window: 0, at: 'x' }, c: { window: 5 }, d: { window: 9, at: 'x' } } }));
    expect(['a', 'b', 'c', 'd'].map((id) => readSessionWindow(root, id))).toEqual([undefined, undefined, undefined, 9]);
  });

  it('keeps the newest 200 sessions', async () => {
    const { root, state } = memory();
    const sessions = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`old${i}`, { window: 100, at: 'x' }]));
    writeFileSync(join(state, 'windows.json'), JSON.stringify({ sessions }));
    expect(await recordSessionWindow(root, 'new', 300, 'y')).toBe(true);
    const kept = Object.keys((JSON.parse(readFileSync(join(state, 'windows.json'), 'utf8')) as { sessions: object }).sessions);
    expect(kept).toHaveLength(200);
    expect([kept[0], kept[199]]).toEqual(['old1', 'new']);
  });

  it('records nothing for a folder without MEMORY.md (no state folder)', async () => {
    const root = join(tempDir(), '.memory');
    mkdirSync(root);
    expect(await recordSessionWindow(root, 's1', 200_000, 'x')).toBe(false);
  });

  it("records the window of a session working in a folder in the memory directory found from there, and throws when there is none", async () => {
    const { root } = memory();
    const sub = join(root, '..', 'src', 'deep');
    mkdirSync(sub, { recursive: true });
    const env = { HOME: '/nowhere' };
    expect(await recordFolderWindow(sub, 's1', 1_000_000, '2026-11-21T10:00:00Z', { env, home: '/nowhere' })).toBe(true);
    expect(await recordFolderWindow(sub, 's1', 1_000_000, '2026-11-21T11:00:00Z', { env, home: '/nowhere' })).toBe(false);
    expect(readSessionWindow(root, 's1')).toBe(1_000_000);
    await expect(recordFolderWindow(tempDir(), 's1', 1, 'x', { env, home: '/nowhere' })).rejects.toThrow(/no \.memory\/ directory/);
  });
});
