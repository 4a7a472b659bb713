import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** A small deterministic PRNG (mulberry32), so every run generates the same corpus. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = 'auth token session cache index budget memory agent refactor migration schema database query latency deploy rollback review feedback test fixture parser lexer module service handler request response queue worker retry timeout config secret rotate policy user project reference decision issue state learning context window compact summary bundle score tier'.split(' ');
const TYPES = ['user', 'feedback', 'project', 'reference'];
const KINDS = ['decision', 'issue', 'state', 'learning', 'note'];

function pick<T>(r: () => number, list: readonly T[]): T {
  return list[Math.floor(r() * list.length)];
}

function sentence(r: () => number, words = 8 + Math.floor(r() * 14)): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(pick(r, WORDS));
  const s = out.join(' ');
  return `${s[0].toUpperCase()}${s.slice(1)}.`;
}

/** One memory file: frontmatter plus prose, lists, a code block and links, about `bytes` long. */
export function memoryText(r: () => number, i: number, total: number, bytes: number): string {
  const type = pick(r, TYPES);
  const kind = pick(r, KINDS);
  const day = 1 + Math.floor(r() * 28);
  const month = 1 + Math.floor(r() * 11);
  const related = `note_${String(Math.floor(r() * total)).padStart(5, '0')}.md`;
  const lines = [
    '---',
    `name: ${pick(r, WORDS)} ${pick(r, WORDS)} ${i}`,
    `description: ${sentence(r, 6).slice(0, -1)}`,
    `type: ${type}`,
    `kind: ${kind}`,
    `updated: 2026-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
    `importance: ${1 + Math.floor(r() * 10)}`,
    `tags: [${pick(r, WORDS)}, ${pick(r, WORDS)}]`,
    `related: [${related}]`,
    '---',
    '',
    `# ${pick(r, WORDS)} ${pick(r, WORDS)}`,
    '',
  ];
  let size = lines.join('\n').length;
  while (size < bytes) {
    const block = Math.floor(r() * 4);
    let chunk: string;
    if (block === 0) chunk = `${sentence(r)} ${sentence(r)} ${sentence(r)}\n`;
    else if (block === 1) chunk = `- ${sentence(r, 6)}\n- ${sentence(r, 5)}\n- see [${pick(r, WORDS)}](${related})\n`;
    else if (block === 2) chunk = `\`\`\`ts\nexport function ${pick(r, WORDS)}${i}(input: string): number {\n  return input.length * ${Math.floor(r() * 100)};\n}\n\`\`\`\n`;
    else chunk = `Decision: ${sentence(r, 7)} Links to [[${pick(r, WORDS)}-${Math.floor(r() * total)}]].\n`;
    lines.push(chunk);
    size += chunk.length + 1;
  }
  return `${lines.join('\n')}\n`;
}

/** Write n memory files of about `bytes` each into dir (emptied first); returns total bytes. */
export function generateCorpus(dir: string, n: number, options: { bytes?: number; seed?: number } = {}): number {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const r = rng(options.seed ?? 42);
  let total = 0;
  for (let i = 0; i < n; i++) {
    const sub = i % 10 === 0 ? 'tasks/' : '';
    const path = join(dir, `${sub}note_${String(i).padStart(5, '0')}.md`);
    mkdirSync(dirname(path), { recursive: true });
    const text = memoryText(r, i, n, options.bytes ?? 1500);
    writeFileSync(path, text);
    total += Buffer.byteLength(text);
  }
  writeFileSync(join(dir, 'MEMORY.md'), '# Memory\n');
  return total;
}
