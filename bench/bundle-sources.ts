/**
 * What a markdown bundle's tokens are spent on, line by line (issue 33): the files' own text (body
 * lines and frontmatter, inside the fences), the framing around them (section and file headings,
 * score lines, load hints, fences), the index, and the rest (descriptions, the left-out note). The
 * retrieval benchmark prints it per question, so a token of overhead at 2,000 tokens is seen as a
 * turn not packed.
 */
export const SOURCES = ['text', 'frontmatter', 'framing', 'index', 'other'] as const;
export type Source = (typeof SOURCES)[number];

/** Each source's lines of a markdown bundle, joined (blank lines go with the text or framing around them). */
export function bundleSources(bundle: string): Record<Source, string> {
  const out: Record<Source, string[]> = { text: [], frontmatter: [], framing: [], index: [], other: [] };
  let fence = '';
  let front = false;
  let section = '';
  let fenceLine = 0;
  bundle.split('\n').forEach((line, n) => {
    const marks = /^(`{3,})/.exec(line)?.[1];
    let source: Source;
    if (fence === '' && marks) {
      [fence, fenceLine, front, source] = [marks, n, false, 'framing'];
    } else if (fence !== '' && line === fence) {
      [fence, source] = ['', 'framing'];
    } else if (fence !== '') {
      const opens = line === '---' && n === fenceLine + 1;
      source = opens || front ? 'frontmatter' : 'text';
      if (opens || (front && line === '---')) front = opens;
    } else if (/^#{1,3} /.test(line)) {
      if (line.startsWith('## ')) section = line;
      source = section === '## Index' && line.startsWith('### ') ? 'index' : 'framing';
    } else if (section === '## Index') source = 'index';
    else if (section === '## Files in full' || section === '## Passages of larger files') source = 'framing';
    else source = 'other';
    out[source].push(line);
  });
  return { text: out.text.join('\n'), frontmatter: out.frontmatter.join('\n'), framing: out.framing.join('\n'), index: out.index.join('\n'), other: out.other.join('\n') };
}
