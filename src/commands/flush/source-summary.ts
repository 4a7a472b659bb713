/**
 * A one-line summary of a source file, in the spirit of DeepCode's file summaries: its first doc
 * comment or heading, and up to five top-level function or class names.
 */

type Lang = 'js' | 'py' | 'go' | 'rust' | 'jvm' | 'ruby' | 'php' | 'c' | 'shell' | 'lua' | 'markdown';

const EXTENSIONS: Record<string, Lang> = {
  js: 'js', jsx: 'js', mjs: 'js', cjs: 'js', ts: 'js', tsx: 'js', mts: 'js', cts: 'js',
  py: 'py', pyi: 'py',
  go: 'go',
  rs: 'rust',
  java: 'jvm', kt: 'jvm', kts: 'jvm', scala: 'jvm', swift: 'jvm', cs: 'jvm', groovy: 'jvm', dart: 'jvm',
  rb: 'ruby',
  php: 'php',
  c: 'c', h: 'c', cc: 'c', cpp: 'c', cxx: 'c', hpp: 'c', hh: 'c', m: 'c',
  sh: 'shell', bash: 'shell', zsh: 'shell',
  lua: 'lua',
  md: 'markdown', markdown: 'markdown',
};

const MAX_NAMES = 5;
const MAX_DOC_CHARS = 100;

function languageOf(path: string): Lang | undefined {
  const m = /\.([A-Za-z0-9]+)$/.exec(path);
  return m ? EXTENSIONS[m[1].toLowerCase()] : undefined;
}

/** True for files memctx can summarize (source code and Markdown). */
export function isSourcePath(path: string): boolean {
  return languageOf(path) !== undefined;
}

const ID = '[A-Za-z_$][\\w$]*';
const NAME_PATTERNS: Record<Lang, RegExp[]> = {
  js: [
    new RegExp(`^(?:export\\s+)?(?:default\\s+)?(?:async\\s+)?function\\s*\\*?\\s*(${ID})`),
    new RegExp(`^(?:export\\s+)?(?:default\\s+)?(?:abstract\\s+)?class\\s+(${ID})`),
    new RegExp(`^(?:export\\s+)?(?:const|let|var)\\s+(${ID})\\s*(?::[^=]+)?=\\s*(?:async\\s+)?(?:function\\b|\\([^)]*\\)\\s*(?::[^=]+)?=>|${ID}\\s*=>)`),
  ],
  py: [/^(?:async\s+)?def\s+(\w+)/, /^class\s+(\w+)/],
  go: [/^func\s+(?:\([^)]*\)\s*)?(\w+)/, /^type\s+(\w+)\s+(?:struct|interface)\b/],
  rust: [/^(?:pub(?:\([^)]*\))?\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?fn\s+(\w+)/, /^(?:pub(?:\([^)]*\))?\s+)?(?:struct|enum|trait)\s+(\w+)/],
  jvm: [
    /^\s{0,4}(?:(?:public|private|protected|internal|abstract|final|static|sealed|open|data|partial|export)\s+)*(?:class|interface|enum|record|object|struct|protocol|trait)\s+(\w+)/,
    /^(?:(?:public|private|internal|suspend|inline)\s+)*(?:fun|func|def)\s+(\w+)/,
  ],
  ruby: [/^\s{0,2}(?:class|module)\s+([\w:]+)/, /^\s{0,2}def\s+(?:self\.)?(\w+[?!=]?)/],
  php: [/^(?:(?:abstract|final)\s+)?(?:class|interface|trait)\s+(\w+)/, /^function\s+(\w+)/],
  c: [/^(?:class|struct)\s+(\w+)\s*[:{]/, /^(?!(?:if|for|while|switch|return|else|do|typedef)\b)[A-Za-z_][\w\s*&:<>,]*?[\s*&](\w+)\s*\([^;]*$/],
  shell: [/^(?:function\s+)?([A-Za-z_][\w-]*)\s*\(\)/, /^function\s+([A-Za-z_][\w-]*)/],
  lua: [/^(?:local\s+)?function\s+([\w.:]+)/],
  markdown: [],
};

const PRAGMA = /^(?:copyright|license|licensed|spdx-license|eslint|prettier|@ts-|@flow|jshint|global\s|istanbul|biome-|tslint|noqa|type:\s*ignore|pylint|-\*-|coding[:=]|vim:|@license|@format|@jsx|#region|#endregion)/i;

function clip(text: string): string {
  const clean = text.replace(/\s+/g, ' ').trim().replace(/[.:;,]$/, '');
  return clean.length > MAX_DOC_CHARS ? `${clean.slice(0, MAX_DOC_CHARS - 1).trimEnd()}…` : clean;
}

/** The first sentence-like line of a comment's text, or undefined for pragmas and separators. */
function docLine(lines: string[]): string | undefined {
  for (const raw of lines) {
    const line = raw.replace(/^\s*[*#/!-]*\s?/, '').replace(/\*\/\s*$/, '').trim();
    if (line === '' || /^[-=*#/_~]+$/.test(line) || line.startsWith('@')) continue;
    if (PRAGMA.test(line)) return undefined;
    return clip(line);
  }
  return undefined;
}

/** The first doc comment (or Markdown heading) near the top of the file. */
// eslint-disable-next-line complexity -- one branch per language's doc-comment syntax, a small hand-written scanner
function firstDoc(lang: Lang, lines: string[]): string | undefined {
  const head = lines.slice(0, 60);
  if (lang === 'markdown') {
    const fm = head[0]?.trim() === '---' ? head.indexOf('---', 1) + 1 : 0;
    const heading = head.slice(fm).find((l) => /^#{1,6}\s+\S/.test(l));
    if (heading) return clip(heading.replace(/^#{1,6}\s+/, '').replace(/\s+#+\s*$/, ''));
    const text = head.slice(fm).find((l) => l.trim() !== '');
    return text ? clip(text) : undefined;
  }
  for (let i = 0; i < head.length; i++) {
    const line = head[i].trim();
    if (line === '' || (i === 0 && line.startsWith('#!')) || /^['"]use strict['"];?$/.test(line) || /^(?:package|import|from|use|require|#include|using|namespace|<\?php)\b/.test(line)) continue;
    if (lang === 'py' && /^[rubf]*("""|''')/i.test(line)) {
      const quote = /("""|''')/.exec(line)![1];
      const after = line.slice(line.indexOf(quote) + 3);
      const block = [after.split(quote)[0]];
      for (let j = i + 1; !after.includes(quote) && j < head.length && !head[j].includes(quote); j++) block.push(head[j]);
      const doc = docLine(block);
      if (doc) return doc;
      continue;
    }
    if (line.startsWith('/*')) {
      const block = [line.replace(/^\/\*+!?/, '')];
      for (let j = i + 1; !line.includes('*/') && j < head.length; j++) {
        block.push(head[j]);
        if (head[j].includes('*/')) break;
      }
      const doc = docLine(block);
      if (doc) return doc;
      while (i < head.length && !head[i].includes('*/')) i++;
      continue;
    }
    const single = lang === 'py' || lang === 'ruby' || lang === 'shell' ? /^#/ : lang === 'lua' ? /^--/ : /^\/\//;
    if (single.test(line)) {
      const block: string[] = [];
      for (let j = i; j < head.length && single.test(head[j].trim()); j++) block.push(head[j].trim().replace(/^(#|--|\/\/)[/!]?/, ''));
      const doc = docLine(block);
      if (doc) return doc;
      i += block.length - 1;
      continue;
    }
    if (lang === 'js' && /^(?:export\s+)?(?:default\s+)?(?:async\s+)?(?:function|class|const|let|var|interface|type|enum)\b/.test(line)) continue;
    // Any other code line: doc comments further down belong to a declaration, not the file.
    if (lang !== 'js') return undefined;
  }
  return undefined;
}

/** Up to MAX_NAMES top-level function or class names, in file order. */
function topLevelNames(lang: Lang, lines: string[]): string[] {
  const names: string[] = [];
  const patterns = NAME_PATTERNS[lang];
  if (!patterns.length) return names;
  for (const line of lines) {
    if (line === '' || line.length > 400) continue;
    for (const pattern of patterns) {
      const m = pattern.exec(line);
      if (m && !names.includes(m[1])) {
        names.push(m[1]);
        break;
      }
    }
    if (names.length >= MAX_NAMES) break;
  }
  return names;
}

/** "doc (name, name)" for a source file, or undefined when there is nothing to say. */
export function summarizeSource(path: string, text: string): string | undefined {
  const lang = languageOf(path);
  if (!lang) return undefined;
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const doc = firstDoc(lang, lines);
  const names = topLevelNames(lang, lines);
  if (doc && names.length) return `${doc} (${names.join(', ')})`;
  return doc ?? (names.length ? names.join(', ') : undefined);
}
