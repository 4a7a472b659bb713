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

/* ---------------------------------------------------------------------------------------------
 * LoCoMo (snap-research/locomo, CC BY-NC 4.0, benchmark use only: read from ../shared/retrieval/locomo/,
 * never committed). One memory directory per conversation, one file per session written by
 * sessionFile (the conversion above), questions of every category but 5 (adversarial).
 * ------------------------------------------------------------------------------------------- */

interface LocomoTurn {
  speaker?: string;
  dia_id?: string;
  text?: string;
  blip_caption?: string;
}

interface LocomoQa {
  question?: string;
  evidence?: string[];
  category?: number;
}

export const LOCOMO_CATEGORIES: Record<number, string> = { 1: 'multi-hop', 2: 'temporal', 3: 'open-domain', 4: 'single-hop' };

export interface LocomoConversation {
  /** The conversation's file name without `.json`, e.g. `26`. */
  id: string;
  /** Its memory directory. */
  dir: string;
  files: number;
  bytes: number;
  questions: (ConversationQuestion & { category: number })[];
  /** Evidence ids that name no turn of the conversation (left out of the labels). */
  unknownEvidence: number;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** "1:56 pm on 8 May, 2023" → "2023-05-08T13:56:00Z" (undefined when it does not read so). */
export function locomoDate(value: string | undefined): string | undefined {
  const m = /^(\d{1,2}):(\d{2})\s*([ap]m)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})/i.exec(value?.trim() ?? '');
  const month = m ? MONTHS.indexOf(m[5].toLowerCase()) : -1;
  if (!m || month < 0) return undefined;
  const hour = (Number(m[1]) % 12) + (m[3].toLowerCase() === 'pm' ? 12 : 0);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${m[6]}-${two(month + 1)}-${two(Number(m[4]))}T${two(hour)}:${m[2]}:00Z`;
}

/** Evidence ids as written, loosely too (`D:11:26`, `D8:6; D9:17`, `D30:05`), as `D<session>:<turn>`. */
export function locomoEvidence(ids: readonly string[] | undefined): string[] {
  const out: string[] = [];
  for (const raw of ids ?? []) for (const m of String(raw).matchAll(/D:?(\d+):0*(\d+)/g)) out.push(`D${Number(m[1])}:${Number(m[2])}`);
  return [...new Set(out)];
}

/** A LoCoMo turn as the conversion's turn: the speaker, the text, and a shared image's caption. */
const locomoTurn = (t: LocomoTurn): Turn => ({ role: t.speaker ?? 'speaker', content: `${t.text ?? ''}${t.blip_caption ? ` [shares a photo: ${t.blip_caption}]` : ''}` });

/** Convert one LoCoMo conversation: files (path → text) and its questions. */
export function convertLocomo(id: string, data: Record<string, unknown>): { files: Map<string, string>; questions: LocomoConversation['questions']; unknownEvidence: number } {
  const files = new Map<string, string>();
  const turnAt = new Map<string, { file: string; line: string }>();
  for (const key of Object.keys(data)) {
    const m = /^session_(\d+)$/.exec(key);
    if (!m || !Array.isArray(data[key])) continue;
    const turns = data[key] as LocomoTurn[];
    const path = `sessions/session-${m[1]}.md`;
    files.set(path, sessionFile(m[1], locomoDate(data[`${key}_date_time`] as string | undefined), turns.map(locomoTurn)));
    for (const t of turns) for (const dia of locomoEvidence(t.dia_id ? [t.dia_id] : [])) turnAt.set(dia, { file: path, line: turnLine(locomoTurn(t)) });
  }
  let unknownEvidence = 0;
  const questions: LocomoConversation['questions'] = [];
  ((data.qa ?? []) as LocomoQa[]).forEach((qa, n) => {
    if (qa.category === undefined || !(qa.category in LOCOMO_CATEGORIES) || !qa.question) return;
    const turns = locomoEvidence(qa.evidence).flatMap((dia) => {
      const turn = turnAt.get(dia);
      if (!turn) unknownEvidence++;
      return turn ? [turn] : [];
    });
    if (turns.length === 0) return;
    questions.push({ id: `${id}#${n}`, question: qa.question, type: LOCOMO_CATEGORIES[qa.category], category: qa.category, files: [...new Set(turns.map((t) => t.file))], turns });
  });
  return { files, questions, unknownEvidence };
}

/** The LoCoMo directory beside the repository (`MEMCTX_LOCOMO` overrides), when it is there. */
export function findLocomo(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const dir = env.MEMCTX_LOCOMO || join(REPO, '../shared/retrieval/locomo');
  return existsSync(dir) && readdirSync(dir).some((f) => f.endsWith('.json')) ? dir : undefined;
}

/** Every conversation of the LoCoMo directory as a memory directory under `work/locomo/<id>/`. */
export function loadLocomo(source: string, work: string): LocomoConversation[] {
  return readdirSync(source)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((name) => {
      const id = name.replace(/\.json$/, '');
      const { files, questions, unknownEvidence } = convertLocomo(id, JSON.parse(readFileSync(join(source, name), 'utf8')) as Record<string, unknown>);
      const dir = join(work, 'locomo', id);
      const bytes = writeTree(dir, new Map([...files, ['MEMORY.md', '# Memory\n']]));
      return { id, dir, files: files.size, bytes, questions, unknownEvidence };
    });
}
