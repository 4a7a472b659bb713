/** The README's runnable shell commands, shared by the README test and the newcomer walkthrough (test/recipes/). */

export interface Command {
  /** 1-based README line where the command starts. */
  line: number;
  text: string;
  expectedExit: number;
  /** On the second run, when it differs. */
  againExit?: number;
}

const SHELL = /^(sh|bash|shell)(\s|$)/;

/** The runnable commands of a Markdown text, in order. */
export function readmeCommands(markdown: string): Command[] {
  const lines = markdown.split('\n');
  const out: Command[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^(`{3,})(.*)$/.exec(lines[i]);
    if (!fence) continue;
    const info = fence[2].trim();
    const skipped = !SHELL.test(info) || /\bnot-run\b/.test(info) || /^<!--\s*not-run\b/.test(lines[i - 1] ?? '');
    let end = i + 1;
    while (end < lines.length && !lines[end].startsWith(fence[1])) end++;
    for (let j = i + 1; !skipped && j < end; j++) {
      if (lines[j].trim() === '' || lines[j].trimStart().startsWith('#')) continue;
      const start = j;
      let text = lines[j];
      while (text.endsWith('\\') && j + 1 < end) text = `${text}\n${lines[++j]}`;
      const comment = /\s{2,}#\s*(.*)$/.exec(text.split('\n').pop()!);
      const exit = comment ? /^exit (\d+)\b(?: \((\d+) when run again\b)?/.exec(comment[1]) : null;
      out.push({ line: start + 1, text, expectedExit: exit ? Number(exit[1]) : 0, ...(exit?.[2] ? { againExit: Number(exit[2]) } : {}) });
    }
    i = end;
  }
  return out;
}
