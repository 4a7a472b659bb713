import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stateOf, tempDir } from '../../helpers/cli.js';
import { readAsked, writeAsked } from '../../../src/commands/checkpoint/cache.js';

function memory(index = true): string {
  const root = join(tempDir(), '.memory');
  mkdirSync(root);
  if (index) writeFileSync(join(root, 'MEMORY.md'), '# Memory\n');
  return root;
}

describe('the thresholds a session was asked at', () => {
  it('are none at first, then what was written, per session', async () => {
    const root = memory();
    expect(readAsked(root, 's1')).toEqual([]);
    expect(await writeAsked(root, 's1', [80], '2026-11-21T10:00:00Z')).toBe(true);
    expect(await writeAsked(root, 's1', [80, 90], '2026-11-21T10:05:00Z')).toBe(true);
    expect(await writeAsked(root, 's2', [95], '2026-11-21T10:06:00Z')).toBe(true);
    expect([readAsked(root, 's1'), readAsked(root, 's2')]).toEqual([[80, 90], [95]]);
    expect(JSON.parse(readFileSync(join(stateOf(root), 'checkpoints.json'), 'utf8'))).toEqual({
      sessions: { s1: { asked: [80, 90], at: '2026-11-21T10:05:00Z' }, s2: { asked: [95], at: '2026-11-21T10:06:00Z' } },
    });
  });

  it('read a record that is not a list of numbers as none', () => {
    const root = memory();
    writeFileSync(join(stateOf(root), 'checkpoints.json'), JSON.stringify({ sessions: { s1: { asked: [80, '90'], at: 'x' }, s2: { asked: [80], at: 1 } } }));
    expect([readAsked(root, 's1'), readAsked(root, 's2')]).toEqual([[], []]);
  });

  it('are not written without a state folder (no MEMORY.md)', async () => {
    expect(await writeAsked(memory(false), 's1', [80], 'x')).toBe(false);
  });
});
