/**
 * Task relevance for `pack --task`: each file's match by the retrieval `search` uses too
 * (search/retrieve.ts: BM25F blended with its best passage), raised for files linked to matched
 * files (first degree more than second), and 1 for a file the task names by path. A file's date
 * (lifecycle/age.ts) is what a task naming a time ("in July 2023") is matched against.
 */
import { fileTimeMs } from '../lifecycle/age.js';
import { retrieve, type Retrieval } from './retrieve.js';
import { linkGraph } from './links.js';
import type { PackFile } from './types.js';

/** A file whose own match reaches this is one "the task matches". */
export const TASK_MATCH = 0.35;
/** Share of a matched neighbour's score a linked file gets, first and second degree. */
const FIRST_DEGREE = 0.4;
const SECOND_DEGREE = 0.15;

export interface TaskScores {
  terms: string[];
  /** Each file's own match, 0-1. */
  own: Float64Array;
  /** With the link boost, 0-1. */
  combined: Float64Array;
  /** The retrieval: passages, and the terms each file and passage holds. */
  retrieval: Retrieval;
}

/** True when the task names the file by its path (with or without .md) as a whole word. */
function namesFile(taskLower: string, path: string): boolean {
  const lower = path.toLowerCase();
  for (const name of new Set([lower, lower.replace(/\.md$/, '')])) {
    if (!name.includes('/') && !name.endsWith('.md')) continue;
    let at = taskLower.indexOf(name);
    while (at !== -1) {
      const before = taskLower[at - 1];
      const after = taskLower[at + name.length];
      if ((before === undefined || !/[\p{L}\p{N}_./-]/u.test(before)) && (after === undefined || !/[\p{L}\p{N}_/-]/u.test(after) || (after === '.' && !/[\p{L}\p{N}]/u.test(taskLower[at + name.length + 1] ?? '')))) return true;
      at = taskLower.indexOf(name, at + 1);
    }
  }
  return false;
}

/** The neighbours of a file without links. */
const NO_NEIGHBOURS: readonly number[] = [];

/** `text` gives a file's text as packed (frontmatter included), for its passages; by default its body. */
export function taskScores(files: readonly PackFile[], task: string, graph: ReadonlyMap<string, ReadonlySet<string>> = linkGraph(files), text: (i: number) => string = (i) => files[i].body): TaskScores {
  const retrieval = retrieve(files, task, { text, time: (i) => fileTimeMs(files[i]) });
  const lower = task.toLowerCase();
  // A path namesFile looks for holds a slash or ends in .md: a task with neither names no file.
  const naming = lower.includes('/') || lower.includes('.md');
  const own = naming ? retrieval.score.map((s, i) => (namesFile(lower, files[i].path) ? 1 : s)) : new Float64Array(retrieval.score);
  // Positions are found only when some file links (most memories have few links or none).
  let position: Map<string, number> | undefined;
  // Links both ways: a file linked to a matched file, or linked from one.
  // Only linked files get a list (most have none): no array per file.
  const linked = new Map<number, number[]>();
  const link = (a: number, b: number) => {
    const list = linked.get(a);
    if (list) list.push(b);
    else linked.set(a, [b]);
  };
  for (const [from, targets] of graph) {
    if (targets.size === 0) continue;
    position ??= new Map(files.map((f, i) => [f.path, i]));
    const a = position.get(from)!;
    for (const to of targets) {
      const b = position.get(to)!;
      link(a, b);
      link(b, a);
    }
  }
  const neighbours = (i: number): readonly number[] => linked.get(i) ?? NO_NEIGHBOURS;
  const first = new Float64Array(files.length);
  for (let i = 0; i < files.length; i++) {
    if (own[i] < TASK_MATCH) continue;
    for (const n of neighbours(i)) first[n] = Math.max(first[n], own[i]);
  }
  const second = new Float64Array(files.length);
  for (let i = 0; i < files.length; i++) {
    if (first[i] === 0) continue;
    for (const n of neighbours(i)) second[n] = Math.max(second[n], first[i]);
  }
  // The boost fills part of the gap to 1, so a file's own match keeps its order among boosted ones.
  const combined = own.map((s, i) => s + (1 - s) * Math.min(1, FIRST_DEGREE * first[i] + SECOND_DEGREE * second[i]));
  return { terms: retrieval.terms, own, combined, retrieval };
}
