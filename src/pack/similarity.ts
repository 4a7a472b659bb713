import { fileStem } from '../store/parse.js';
import type { PackFile } from './types.js';

const STOPWORDS = new Set(
  'the and for with that this from into onto over under about after before then than what when where which while who why how are was were been being have has had not but all any can could should would will shall may might must our your their its his her they them you she him out off per via use using add fix make get set new old now yes also just only more most some such each other same own'.split(' '),
);

/** The distinct words of a task worth matching: lower-cased, 3+ characters, common words dropped. */
export function taskTerms(task: string): string[] {
  const words = task.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
  return [...new Set(words.filter((w) => [...w].length >= 3 && !STOPWORDS.has(w)))];
}

/** True when the task names the file: its path, file name or `name:` (4+ characters). */
export function mentionsFile(taskLower: string, file: PackFile): boolean {
  const names = [file.path.toLowerCase(), fileStem(file.path).toLowerCase(), file.name.toLowerCase()];
  return names.some((name) => name.length >= 4 && taskLower.includes(name));
}

/**
 * How well a file matches a task, 0-1: 1 when the task names the file, otherwise the share of the
 * task's words found in the file's name, description, tags, path or body.
 */
export function taskSimilarity(task: { lower: string; terms: string[] }, file: PackFile): number {
  if (task.terms.length === 0 && task.lower.trim() === '') return 0;
  if (mentionsFile(task.lower, file)) return 1;
  if (task.terms.length === 0) return 0;
  const meta = `${file.path}\n${file.name}\n${file.description}\n${file.tags.join(' ')}`.toLowerCase();
  let body: string | undefined;
  let found = 0;
  for (const term of task.terms) {
    if (meta.includes(term) || file.body.includes(term) || (body ??= file.body.toLowerCase()).includes(term)) found++;
  }
  return found / task.terms.length;
}
