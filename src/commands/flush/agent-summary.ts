/**
 * At SessionEnd or PreCompact: a summary the agent already wrote for this session is kept and revised
 * with what the transcript proves happened after it (design §7). One file per session.
 */
import { MemctxError } from '../../kernel/errors.js';
import type { FieldValues } from '../../kernel/summary/fields.js';
import type { Template } from '../../kernel/summary/templates.js';
import { findHookSessionFile } from '../../kernel/summary/files.js';
import { readMemoryFile, isProblem } from '../../kernel/store/scan.js';
import { openTranscriptFile, transcriptPath } from '../../kernel/sources/transcript-file.js';
import { detectFormat } from '../../kernel/transcript/detect.js';
import { readTranscriptWith } from '../../kernel/transcript/reader.js';
import { loadModule } from '../../kernel/load.js';

type AgentRules = typeof import('../../kernel/summary/agent-summary.js');

/** The rules of a summary the agent writes (kernel/summary/agent-summary.ts): loaded only for one, so a hook that finds none does without them. */
export function agentRules(): Promise<AgentRules> {
  return loadModule('../../kernel/summary/agent-summary.js', import.meta.url, () => import('../../kernel/summary/agent-summary.js'));
}

export interface KeptSummary {
  /** The session file, inside the memory directory. */
  path: string;
  values: FieldValues;
  notes: string[];
  /** True when memctx added to it (its frontmatter then says which part the agent wrote). */
  revised: boolean;
  /** Its frontmatter's own fields: who wrote it and, when revised, which part memctx added. */
  frontmatter: Record<string, string>;
}

/** The agent-written session file of this session, revised with what happened after it; undefined when there is none. */
export async function keptAgentSummary(
  deps: { home: string },
  flush: typeof import('./core.js'),
  template: Template,
  scope: { root: string; cwd: string; sessionId?: string; transcript?: string },
): Promise<KeptSummary | undefined> {
  if (template.name !== 'session' || !scope.sessionId) return undefined;
  const path = findHookSessionFile(scope.root, template.dir, scope.sessionId);
  const file = path ? readMemoryFile(scope.root, path) : undefined;
  if (!path || !file || isProblem(file)) return undefined;
  const rules = await agentRules();
  if (file.data.written_by !== rules.WRITTEN_BY_AGENT.written_by) return undefined;
  // A background summary (`written_with`) was asked at an earlier end: a resumed session is summarized and asked again.
  if (file.data.written_with !== undefined) return undefined;
  const values = flush.parseBody(template, file.body);
  const kept = (revised: boolean) => ({ ...rules.WRITTEN_BY_AGENT, ...(revised ? rules.REVISED_NOTE : {}) });
  const later = scope.transcript === undefined ? undefined : await laterItems(deps, rules, scope.transcript, scope.cwd);
  if (!later) {
    const revised = file.data.revised !== undefined;
    return { path, values, revised, frontmatter: kept(revised), notes: [`kept the agent's summary ${path}; the transcript does not show when it was written, so nothing was added`] };
  }
  const fields = flush.transcriptFields({ ...later.transcript, items: later.items, contextStart: 0 }, later.format, { cwd: scope.cwd });
  const completed = rules.completeAgentValues(values, rules.laterFacts(later.items, scope.cwd, scope.root, fields));
  const what = completed.added.length ? `revised with ${completed.added.join(', ')}` : 'nothing happened after it';
  return { path, values: completed.values, revised: completed.added.length > 0, frontmatter: kept(completed.added.length > 0), notes: [`kept the agent's summary ${path}; ${what}`] };
}

/**
 * The transcript's items after the agent's summary call; undefined when it cannot be read or shows no
 * such call. Read from the end: only the lines from the last call on are parsed (it is usually near
 * the end of a long session).
 */
async function laterItems(deps: { home: string }, rules: AgentRules, transcript: string, cwd: string) {
  try {
    const path = transcriptPath(transcript, cwd, deps.home);
    const file = openTranscriptFile(path, transcript);
    try {
      const head = file.firstLines();
      const format = detectFormat(head.text, { complete: head.complete });
      const tail: string[][] = [];
      for (const chunk of file.linesBackward()) {
        tail.unshift(chunk.lines);
        // a chunk that names memctx's flush may hold the call: parse what has been read so far
        if (!chunk.lines.some((line) => /memctx\S*flush|memctx[^"\n]*\sflush/.test(line)) && !chunk.atStart) continue;
        const read = await readTranscriptWith(tail.flat().join('\n'), { format });
        const later = rules.afterAgentSummary(read.transcript.items);
        if (later) return { items: later, ...read };
        if (chunk.atStart) return undefined;
      }
      return undefined;
    } finally {
      file.close();
    }
  } catch (err) {
    if (err instanceof MemctxError || (err as NodeJS.ErrnoException).code) return undefined;
    throw err;
  }
}
