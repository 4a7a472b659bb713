import { describe, expect, it } from 'vitest';
import { hasMarkers } from '../../../src/kernel/rank/markers.js';

describe('hasMarkers', () => {
  it('TODO or BLOCKER as a whole word, anywhere in the body', () => {
    expect(['TODO: ship it', 'one BLOCKER left', 'done.\n- TODO', '(TODO)'].map(hasMarkers)).toEqual([true, true, true, true]);
  });

  it('not inside a longer word, not in lower case, not absent', () => {
    expect(['TODOS are gone', 'UNBLOCKERS', 'todo: later', 'MYTODO', 'nothing here', ''].map(hasMarkers)).toEqual([false, false, false, false, false, false]);
  });
});
