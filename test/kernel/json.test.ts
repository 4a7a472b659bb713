import { describe, expect, it } from 'vitest';
import { duplicateJsonKey } from '../../src/kernel/json.js';

describe('duplicateJsonKey', () => {
  it('finds the first key repeated within one object, with its line', () => {
    expect(duplicateJsonKey('{\n  "a": 1,\n  "b": {"x": 1, "y": 2},\n  "a": 3\n}')).toEqual({ key: 'a', line: 4 });
    expect(duplicateJsonKey('{"hooks": {"Stop": [], "Stop": []}}')).toEqual({ key: 'Stop', line: 1 });
  });

  it('keys equal in different objects, strings in lists and escaped quotes are no repeat', () => {
    expect(duplicateJsonKey('{"a": {"k": 1}, "b": {"k": 2}}')).toBeUndefined();
    expect(duplicateJsonKey('{"a": ["a", "a"], "b": "say \\"a\\": twice"}')).toBeUndefined();
    expect(duplicateJsonKey('[{"k": 1}, {"k": 2}]')).toBeUndefined();
  });
});
