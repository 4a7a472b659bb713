/** Markdown links in a text, outside fenced code, with their positions. */
export interface TextLink {
  /** The target as written (no title, no angle brackets). */
  raw: string;
  /** Decoded, without `#fragment` or `?query`. */
  target: string;
  line: number;
  column: number;
}

// Linear on any input: link text holds no `[` and the target no bracket or `(`, so no attempt scans past the next one.
const LINK = /\[(?:[^[\]\\\n]|\\.)*\]\(\s*<?([^()[\]\s>]+)>?(?:\s+"[^"\n]*")?\s*\)/g;

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export function markdownLinks(text: string, firstLine = 1): TextLink[] {
  const out: TextLink[] = [];
  let fence: string | undefined;
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fenceMatch = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fenceMatch) {
      if (!fence) fence = fenceMatch[1][0];
      else if (fenceMatch[1][0] === fence) fence = undefined;
      continue;
    }
    if (fence || !line.includes('](')) continue;
    for (const m of line.matchAll(LINK)) {
      const raw = m[1];
      const target = decode(raw.replace(/[#?].*$/, ''));
      out.push({ raw, target, line: firstLine + i, column: m.index + 1 });
    }
  }
  return out;
}

/** True for links that leave the repository: URLs, mail, absolute paths, bare fragments. */
export function isExternal(raw: string): boolean {
  return raw === '' || raw.startsWith('#') || raw.startsWith('/') || /^[a-z][a-z0-9+.-]*:/i.test(raw);
}

/** Normalise a relative path against a directory (both with `/`); undefined when it climbs above the root. */
export function joinPath(dir: string, target: string): string | undefined {
  const out: string[] = [];
  for (const part of (dir ? `${dir}/${target}` : target).split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(part);
  }
  return out.join('/');
}

/** Paths inside the memory directory that a text links to (external links and links climbing out left out). */
export function linkedPaths(text: string): Set<string> {
  const out = new Set<string>();
  for (const link of markdownLinks(text)) {
    if (isExternal(link.raw)) continue;
    const path = joinPath('', link.target);
    if (path !== undefined) out.add(path);
  }
  return out;
}
