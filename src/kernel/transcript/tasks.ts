/**
 * An agent's task list through a session: whole lists a tool call sets (TodoWrite, update_plan,
 * write_todos) and single tasks created and updated one at a time (Claude Code's TaskCreate and
 * TaskUpdate). Completed items are remembered across lists, so a resumed session that starts a new
 * plan keeps what the earlier run finished.
 */
import { isRecord } from '../values.js';
import { condense } from './statement.js';
import type { TranscriptItem } from './types.js';

type PlanStatus = 'completed' | 'in_progress' | 'pending' | 'blocked';

export interface PlanItem {
  text: string;
  status: PlanStatus;
}

function planStatus(value: unknown): PlanStatus | undefined {
  const s = typeof value === 'string' ? value.toLowerCase().replace(/[\s-]+/g, '_') : '';
  if (s === 'completed' || s === 'done' || s === 'complete') return 'completed';
  if (s === 'in_progress' || s === 'active' || s === 'doing') return 'in_progress';
  if (s === 'pending' || s === 'todo' || s === 'not_started' || s === 'open') return 'pending';
  if (s === 'blocked') return 'blocked';
  return undefined;
}

/** Task list items from `list` (objects with one of `textKeys` and a `status`); malformed entries are skipped. */
export function planItems(list: unknown, textKeys: string[]): PlanItem[] {
  if (!Array.isArray(list)) return [];
  const out: PlanItem[] = [];
  for (const entry of list) {
    if (!isRecord(entry)) continue;
    const key = textKeys.find((k) => typeof entry[k] === 'string' && (entry[k]).trim());
    const status = planStatus(entry.status);
    if (!key || !status) continue;
    out.push({ text: condense(entry[key] as string, 200), status });
  }
  return out;
}

/** One change to the task list, as a format's profile reads it from a tool call. */
export type TaskEvent = { list: PlanItem[] } | { create: string } | { update: string; status?: PlanStatus; text?: string } | { delete: string };

/** The task list as it stands, and every item completed along the way (with the index of the call that completed it). */
export class TaskLog {
  private items = new Map<string, PlanItem>();
  private created = 0;
  readonly completed: { text: string; index: number }[] = [];
  /** Index of the last call that changed the list. */
  lastIndex = -1;

  apply(event: TaskEvent, index: number): void {
    this.lastIndex = index;
    if ('list' in event) {
      this.items = new Map(event.list.map((item, i) => [`list:${i}`, item]));
      for (const item of event.list) if (item.status === 'completed') this.complete(item.text, index);
    } else if ('create' in event) {
      this.items.set(String(++this.created), { text: condense(event.create, 200), status: 'pending' });
    } else if ('delete' in event) {
      this.items.delete(event.delete);
    } else {
      const item = this.items.get(event.update);
      if (!item) return;
      if (event.text) item.text = condense(event.text, 200);
      if (event.status) item.status = event.status;
      if (item.status === 'completed') this.complete(item.text, index);
    }
  }

  private complete(text: string, index: number): void {
    if (!this.completed.some((c) => c.text === text)) this.completed.push({ text, index });
  }

  /** The list now. */
  current(): PlanItem[] {
    return [...this.items.values()];
  }

  get empty(): boolean {
    return this.lastIndex < 0;
  }
}

/** Claude Code's TaskCreate/TaskUpdate calls (ids are "1", "2", … in order of creation). */
export function claudeTaskEvent(call: TranscriptItem): TaskEvent | undefined {
  const input = call.toolInput;
  if (!isRecord(input)) return undefined;
  if (call.toolName === 'TodoWrite') return { list: planItems(input.todos, ['content', 'activeForm']) };
  if (call.toolName === 'TaskCreate' && typeof input.subject === 'string') return { create: input.subject };
  if (call.toolName === 'TaskUpdate' && (typeof input.taskId === 'string' || typeof input.taskId === 'number')) {
    const id = String(input.taskId);
    if (input.status === 'deleted') return { delete: id };
    return { update: id, status: planStatus(input.status), text: typeof input.subject === 'string' ? input.subject : undefined };
  }
  return undefined;
}
