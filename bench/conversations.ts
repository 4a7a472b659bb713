/**
 * The real-conversation retrieval benchmark's data: multi-session chats with turn-level evidence in
 * LongMemEval's public format (`question`, `answer_session_ids`, `haystack_session_ids`,
 * `haystack_dates`, `haystack_sessions` of `{ role, content, has_answer? }` turns), turned into a
 * memory directory of one file per session and a label list that keeps the source's evidence
 * turns. The data itself is not in this repository (see fixtures/retrieval/CONVERSATIONS.md):
 * `MEMCTX_CONVERSATIONS` names a data file, or a directory holding one already converted.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { REPO } from './measure.js';

export interface ConversationQuestion {
  id: string;
  question: string;
  type: string;
  /** Memory paths of the sessions holding the evidence. */
  files: string[];
  /** The evidence turns, each exactly as its line reads in its memory file. */
  turns: { file: string; line: string }[];
}

export interface ConversationSet {
  /** Where the data came from (a file or a converted directory). */
  source: string;
  /** The memory directory. */
  dir: string;
  questions: ConversationQuestion[];
  files: number;
  bytes: number;
}

interface Turn {
  role?: string;
  content?: string;
  has_answer?: boolean;
}

interface Instance {
  question_id: string;
  question_type?: string;
  question: string;
  answer_session_ids?: string[];
  haystack_session_ids?: string[];
  haystack_dates?: string[];
  haystack_sessions?: Turn[][];
}

export interface ConvertOptions {
  /** At most this many questions (those with labelled evidence turns, in the source's order). */
  questions: number;
  /** Sessions of each question's own history that hold no evidence, added as distractors. */
  distractors: number;
}

/** "2023/05/20 (Sat) 02:21" → "2023-05-20T02:21:00Z" (undefined when it does not read so). */
export function isoDate(value: string | undefined): string | undefined {
  const m = /^(\d{4})\/(\d{2})\/(\d{2})(?:\s*\(\w+\))?\s*(\d{2}):(\d{2})/.exec(value ?? '');
  return m ? `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:00Z` : undefined;
}

/** A turn as one line of its memory file: `**user:** text`, its own line breaks folded into spaces. */
export function turnLine(turn: Turn): string {
  const text = (turn.content ?? '').replace(/\s*\r?\n\s*/g, ' ').trim();
  return `**${turn.role ?? 'speaker'}:** ${text}`;
}

const safeName = (id: string) => id.replace(/[^A-Za-z0-9_-]+/g, '-');
const yamlString = (s: string) => JSON.stringify(s);

/** The memory file of one session: frontmatter, then one line per turn with a blank line between turns. */
export function sessionFile(id: string, date: string | undefined, turns: readonly Turn[]): string {
  const first = turns.find((t) => t.role === 'user')?.content ?? turns[0]?.content ?? '';
  const sentence = first.replace(/\s+/g, ' ').trim().split(/(?<=[.?!])\s/)[0].slice(0, 140);
  const front = [
    '---',
    `name: ${yamlString(`Chat session ${id}`)}`,
    `description: ${yamlString(sentence || 'chat session')}`,
    'type: project',
    'kind: session',
    ...(date ? [`updated: ${date}`] : []),
    '---',
  ];
  return `${front.join('\n')}\n\n${turns.map(turnLine).join('\n\n')}\n`;
}

/** Convert LongMemEval-format instances into files (path → text) and questions. */
export function convert(instances: readonly Instance[], options: ConvertOptions): { files: Map<string, string>; questions: ConversationQuestion[] } {
  const files = new Map<string, string>();
  const questions: ConversationQuestion[] = [];
  const add = (id: string, date: string | undefined, turns: Turn[]) => {
    const path = `sessions/${safeName(id)}.md`;
    if (!files.has(path)) files.set(path, sessionFile(id, date, turns));
    return path;
  };
  for (const item of instances) {
    if (questions.length >= options.questions) break;
    if (item.question_id.endsWith('_abs')) continue;
    const ids = item.haystack_session_ids ?? [];
    const sessions = item.haystack_sessions ?? [];
    const answers = new Set(item.answer_session_ids ?? []);
    const turns: ConversationQuestion['turns'] = [];
    const evidence: string[] = [];
    let distractors = 0;
    sessions.forEach((session, n) => {
      const id = ids[n] ?? `${item.question_id}-${n}`;
      const labelled = session.filter((t) => t.has_answer);
      if (answers.has(id) || labelled.length) {
        const path = add(id, isoDate(item.haystack_dates?.[n]), session);
        evidence.push(path);
        for (const t of labelled) turns.push({ file: path, line: turnLine(t) });
      }
    });
    if (turns.length === 0) continue;
    // Distractors: sessions of the same history without evidence, spread over it.
    const others = sessions.map((_, n) => n).filter((n) => !answers.has(ids[n] ?? '') && !sessions[n].some((t) => t.has_answer));
    const step = Math.max(1, Math.floor(others.length / Math.max(1, options.distractors)));
    for (let k = 0; k < others.length && distractors < options.distractors; k += step, distractors++) {
      const n = others[k];
      add(ids[n] ?? `${item.question_id}-${n}`, isoDate(item.haystack_dates?.[n]), sessions[n]);
    }
    questions.push({ id: item.question_id, question: item.question, type: item.question_type ?? '', files: [...new Set(evidence)], turns });
  }
  return { files, questions };
}

/** Where the data is: MEMCTX_CONVERSATIONS, else a converted copy or data file beside the repository (shared/) or in fixtures/. */
export function findConversations(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const candidates = [
    env.MEMCTX_CONVERSATIONS,
    join(REPO, 'fixtures/retrieval/conversations'),
    join(REPO, '../shared/retrieval/conversations'),
    join(REPO, '../shared/retrieval/longmemeval_s_cleaned.json'),
    join(REPO, '../shared/retrieval/longmemeval_s.json'),
  ];
  return candidates.find((p): p is string => p !== undefined && p !== '' && existsSync(p));
}

function writeTree(dir: string, files: ReadonlyMap<string, string>): number {
  let bytes = 0;
  for (const [path, text] of files) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
    bytes += Buffer.byteLength(text);
  }
  return bytes;
}

/**
 * The data as a memory directory under `work` and its questions. A data file is converted (a
 * converted directory holds `memory/` and `questions.json`, as `convertTo` writes them).
 */
export function loadConversations(source: string, work: string, options: ConvertOptions): ConversationSet {
  if (statSync(source).isDirectory()) {
    const questions = JSON.parse(readFileSync(join(source, 'questions.json'), 'utf8')) as ConversationQuestion[];
    // A copy: packing writes its caches beside the files.
    const dir = join(work, 'conversations');
    cpSync(join(source, 'memory'), dir, { recursive: true });
    const list = (d: string): string[] => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? list(join(d, e.name)) : e.name.endsWith('.md') ? [join(d, e.name)] : []));
    const paths = list(dir);
    return { source, dir, questions: questions.slice(0, options.questions), files: paths.length, bytes: paths.reduce((n, p) => n + statSync(p).size, 0) };
  }
  const data = JSON.parse(readFileSync(source, 'utf8')) as Instance[];
  const { files, questions } = convert(data, options);
  const dir = join(work, 'conversations');
  const bytes = writeTree(dir, new Map([...files, ['MEMORY.md', '# Memory\n']]));
  return { source, dir, questions, files: files.size, bytes };
}

/** Write a converted copy (memory/ and questions.json) to `out`, to be placed where findConversations looks. */
export function convertTo(source: string, out: string, options: ConvertOptions): { files: number; questions: number; bytes: number } {
  const data = JSON.parse(readFileSync(source, 'utf8')) as Instance[];
  const { files, questions } = convert(data, options);
  const bytes = writeTree(join(out, 'memory'), new Map([...files, ['MEMORY.md', '# Memory\n']]));
  writeFileSync(join(out, 'questions.json'), `${JSON.stringify(questions, null, 1)}\n`);
  return { files: files.size, questions: questions.length, bytes };
}

// `node dist/bench/conversations.js DATA.json OUT [QUESTIONS] [DISTRACTORS]` writes a converted copy.
if (process.argv[1]?.endsWith('conversations.js') && process.argv.length >= 4) {
  const [source, out, questions = '300', distractors = '3'] = process.argv.slice(2);
  console.log(convertTo(source, out, { questions: Number(questions), distractors: Number(distractors) }));
}
