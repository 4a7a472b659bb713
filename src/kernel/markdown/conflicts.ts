/**
 * Git conflict markers left in a text: `<<<<<<< ours`, `|||||||`, `=======` and `>>>>>>> theirs`
 * lines, as `git diff --check` finds them. A `=======` line counts only between an opening and a
 * closing marker (alone it is a Markdown heading underline). Fenced code is not exempt: git does
 * not know about fences, and a conflict inside one is still a conflict.
 */
const OPEN = /^<{7}(?: |$)/;
const BASE = /^\|{7}(?: |$)/;
const MIDDLE = /^={7}$/;
const CLOSE = /^>{7}(?: |$)/;

/** 1-based numbers of the conflict-marker lines in text. */
export function conflictMarkerLines(text: string): number[] {
  const lines = text.split('\n').map((line) => line.replace(/\r$/, ''));
  const found: number[] = [];
  let open = false;
  lines.forEach((line, i) => {
    if (OPEN.test(line)) {
      open = true;
      found.push(i + 1);
    } else if (CLOSE.test(line)) {
      open = false;
      found.push(i + 1);
    } else if (BASE.test(line) || (open && MIDDLE.test(line))) found.push(i + 1);
  });
  return found;
}
