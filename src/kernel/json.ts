/**
 * JSON.parse keeps the last of two equal keys in an object and drops the first without a word; a
 * file merged by memctx (an agent's settings) must not lose the first one. Call on text JSON.parse
 * accepted.
 */
import { lineAt } from './lines.js';

/** The first key that repeats within one object, with its line; undefined when none does. */
export function duplicateJsonKey(text: string): { key: string; line: number } | undefined {
  const objects: Array<Set<string> | undefined> = [];
  const token = /"(?:[^"\\]|\\.)*"|[{}[\]]/g;
  const colon = /\s*:/y;
  for (let match = token.exec(text); match; match = token.exec(text)) {
    const t = match[0];
    if (t === '{') objects.push(new Set());
    else if (t === '[') objects.push(undefined);
    else if (t === '}' || t === ']') objects.pop();
    else {
      const keys = objects[objects.length - 1];
      colon.lastIndex = token.lastIndex;
      if (keys === undefined || !colon.test(text)) continue;
      const key = JSON.parse(t) as string;
      if (keys.has(key)) return { key, line: lineAt(text, match.index) };
      keys.add(key);
    }
  }
  return undefined;
}
