/**
 * An agent's compaction summary (Claude Code `isCompactSummary`, Codex `compacted`): its numbered
 * sections by name, their items, and the items of the decision-bearing ones without their labels.
 * A summary describes the moment of compaction; extract.ts decides what of it still stands.
 */
import { condense, proseLines, wholeStatement } from './statement.js';

export type SectionName = 'primary' | 'pending' | 'current' | 'next' | 'problems' | 'errors' | 'decisions';

const SECTION = /^\s*(?:#{1,4}\s*)?(?:\d+\.\s*)?(?:\*\*)?(Primary Request(?: and Intent)?|Pending Tasks|Current Work|Optional Next Steps?|Problem Solving|Errors and (?:fixes|Fixes)|Key (?:Technical )?Decisions|Technical Decisions)(?:\*\*)?\s*(?:\([^)]*\))?\s*:?\s*(?:\*\*)?\s*(.*)$/i;
const ANY_SECTION = /^\s*(?:#{1,4}\s*)?\d+\.\s+(?:\*\*)?[A-Z][^:\n]{2,60}:/;

function sectionName(title: string): SectionName {
  const t = title.toLowerCase();
  if (t.startsWith('primary')) return 'primary';
  if (t.startsWith('pending')) return 'pending';
  if (t.startsWith('current')) return 'current';
  if (t.startsWith('optional')) return 'next';
  if (t.startsWith('problem')) return 'problems';
  if (t.startsWith('errors')) return 'errors';
  return 'decisions';
}

/** A compaction summary's sections by name (absent when the summary has none). */
export function summarySections(text: string): Partial<Record<SectionName, string>> {
  const out: Partial<Record<SectionName, string>> = {};
  let open: SectionName | undefined;
  let body: string[] = [];
  const close = () => {
    if (open && !(open in out)) out[open] = body.join('\n').replace(/^(?:[ \t]*\n)+/, '').trimEnd();
    open = undefined;
    body = [];
  };
  for (const line of text.split('\n')) {
    const m = SECTION.exec(line);
    if (m) {
      close();
      open = sectionName(m[1]);
      if (m[2]) body.push(m[2]);
      continue;
    }
    if (open && ANY_SECTION.test(line)) close();
    else if (open) body.push(line);
  }
  close();
  return out;
}

/** A section's first paragraph (its first sentence), or its first list item when it starts with a list. */
export function sectionLead(body: string): string | undefined {
  const para = body.split(/\n\s*\n/)[0]?.trim();
  if (!para) return undefined;
  return /^(?:[-*+]|\d+[.)])\s/.test(para) ? sectionItems(body)[0] : condense(para.split('\n')[0]);
}

interface RawItem {
  indent: number;
  text: string;
  children: string[];
}

/** Top-level list items with their nested items' text; code blocks left out. */
function rawItems(body: string): RawItem[] {
  const items: RawItem[] = [];
  for (const line of proseLines(body)) {
    const m = /^(\s*)(?:[-*+]|\d+[.)])\s+(.+)$/.exec(line);
    if (!m) continue;
    const indent = m[1].length;
    const parent = items[items.length - 1];
    if (parent && indent > parent.indent) parent.children.push(m[2]);
    else items.push({ indent, text: m[2], children: [] });
  }
  const top = Math.min(...items.map((i) => i.indent));
  return items.filter((i) => i.indent === top);
}

/** Top-level list items of a section, or its first paragraph when it has none; code blocks left out. */
export function sectionItems(body: string): string[] {
  const items = rawItems(body);
  if (items.length) return items.map((i) => condense(i.text));
  const para = body.split(/\n\s*\n/)[0]?.trim();
  return para ? [condense(para)] : [];
}

/** A leading emphasised label (`**Bug 1 (path):**`, `*Key fix in this session:*`) and the text after it. */
const LABEL = /^(?:\*\*([^*\n]{1,120}?)\*\*|__([^_\n]{1,120}?)__|\*([^*\n]{1,80}?)\*)\s*:?\s*(.*)$/;
/** Labels that say nothing about the decision itself. */
const EMPTY_LABEL = /^(?:key (?:fix|decision|change|insight)s?(?: in this session)?|fix(?:ed)?|solution|resolution|decision|note|root cause|approach|why|rationale|outcome|result)$/i;
/** The fix in an "Errors and fixes" item. */
const FIX = /(?:^|[.;:]\s+|\s-\s)((?:Fixed\b|Fix(?:es)?:|Solved\b|Resolved\b|Changed\b|Replaced\b|Switched\b|Worked around\b)\s*[^]*)$/;
/** A sentence that says what was done about an error ("I rewrote the plan …", "… grouping by session ID instead"). */
const ACTION = /^(?:I|We)\s+(?:rewrote|changed|switched|replaced|added|removed|moved|used|made|kept|implemented)\b|\binstead\b|\brather than\b/i;
/** A Problem Solving item that states a choice, not only an activity. */
const CHOICE = /\b(?:because|instead|rather than|so that|to avoid|chose|decided|designed|determined|should|approach|by (?:using|adding|removing|changing|keeping)|falls? ?back|trade-?off|skipped|won't fix|per user)\b/i;
/** Fixes that only satisfy a tool (formatting, a missing import, a misspelt name): no choice in them. */
const MECHANICAL = /\b(?:gofmt|prettier|black|rustfmt|trailing (?:newline|whitespace)|missing import|added (?:the )?import|correct (?:type |function )?name|typo|unused (?:import|variable))\b/i;
/** Items that say what is still to be done: a next step, not a decision. */
const STILL_TO_DO = /\bneeds? to be (?:updated|changed|fixed|moved|added)\b/i;
/** Items that report activity rather than a choice. */
const NOT_A_DECISION = /^(?:successfully|all (?:tests|checks)|tests? pass|ran |read |checked |verified |replied |identified |organized |systematically )/i;

/** A fix with the sentence before it in its item as its why ("…, because X returned an error"), when that fits a whole statement. */
function withCause(fix: string, whole: string): string {
  const firstLine = fix.split('\n')[0].replace(/[:.]\s*$/, '');
  const before = whole.slice(0, whole.indexOf(fix)).trim().split(/(?<=[.!])\s+/).filter(Boolean).pop()?.replace(/[.!]$/, '');
  if (!before || before.length < 15 || /\b(?:because|since|so that|to avoid|to prevent|instead of|rather than)\b/i.test(fix)) return fix;
  const joined = `${firstLine}, because ${before.charAt(0).toLowerCase()}${before.slice(1)}.`;
  return joined.length <= 240 ? joined : fix;
}

/**
 * The decision-bearing sections' items (Key Technical Decisions, Errors and fixes, Problem Solving),
 * without their labels: an error item gives its fix, with the error's name as its subject
 * ("macOS symlink: Fixed by …"); a Problem Solving item counts when it states a choice.
 */
// eslint-disable-next-line complexity -- one branch per summary section and item shape, a format reader
export function summaryDecisions(sections: Partial<Record<SectionName, string>>): string[] {
  const out: string[] = [];
  for (const name of ['decisions', 'errors', 'problems'] as const) {
    const body = sections[name];
    if (!body) continue;
    for (const item of rawItems(body)) {
      const m = LABEL.exec(item.text.trim());
      const label = m ? (m[1] ?? m[2] ?? m[3]).trim().replace(/:$/, '') : undefined;
      const rest = (m ? m[4] : item.text).trim();
      const whole = [rest, ...item.children].filter(Boolean).join('. ').replace(/([.:;])\. /g, '$1 ').replace(/\*\*|__/g, '');
      let text: string;
      if (name === 'errors') {
        // within an error item, the fix is the decision; the error's name says what it fixed
        const fix = FIX.exec(whole)?.[1] ?? whole.split(/(?<=[.!])\s+/).reverse().find((s) => ACTION.test(s));
        if (!fix) continue;
        // the error's name is the subject when short; else the sentence before the fix says why
        const subject = label && !EMPTY_LABEL.test(label) && label.length <= 48 ? label : undefined;
        text = subject ? `${subject}: ${fix}` : withCause(fix, whole);
      } else {
        text = whole;
        if (name === 'problems' && !CHOICE.test(text)) continue;
      }
      if (!text || NOT_A_DECISION.test(text) || MECHANICAL.test(text) || STILL_TO_DO.test(text)) continue;
      // whole sentences only: a decision cut short loses its why
      const kept = wholeStatement(text.replace(/^[*_]+\s*/, ''), 240);
      if (kept) out.push(kept);
    }
  }
  return out;
}
