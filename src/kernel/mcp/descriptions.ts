/** What the model reads about each tool: what it does, when to use it, its limits. */
export const TOOL_TEXT = {
  instructions: [
    "This server holds the project's long-lived memory: small Markdown files with YAML frontmatter under /memories,",
    'indexed in MEMORY.md (resource memctx://memory/MEMORY.md). Read MEMORY.md or `memory view /memories` at the start of',
    'a task; `search` or `pack` to find what matters. Save durable facts (decisions and why, how the project works,',
    'user preferences, open issues) with the `memory` tool; never save secrets, credentials or one-off chatter.',
  ].join(' '),
  memory: [
    "Read and change the project's memory files: the commands and arguments of Anthropic's memory tool (memory_20250818).",
    'Paths start with /memories. view: a directory lists files (size, path, description) two levels deep; a file is shown',
    'with line numbers (view_range [start, end], end -1 = last line). create: a new .md file (never overwrites; a file',
    'without frontmatter gets one with name, description, type, created and updated, so view it before editing by line).',
    'str_replace: old_str must occur exactly once. insert: insert_text goes after line insert_line (0 = top). delete: a',
    'file or directory. rename: old_path to new_path (never overwrites). Every change sets `updated` and rebuilds',
    'MEMORY.md, which cannot be changed directly. Keep each file on one topic and under about 2,000 tokens.',
  ].join(' '),
  search: [
    'Ranked search over the memory files, in the order `pack` with the same task ranks them (text match, then importance and recency). Use it to find',
    'what the memory says about a subject before answering or changing code. Returns paths under /memories with scores',
    'and descriptions; open a hit with `memory view`.',
  ].join(' '),
  pack: [
    'Pack the memory files that matter most into one Markdown bundle under a token budget (whole files first, then',
    'summaries, then index lines). Use it at the start of a task, with `task` describing the work, or to hand work over',
    '(profile handoff-*). Returns the bundle as text and what was included as structured content (at most 100 entries',
    'per list; notListed counts the rest).',
  ].join(' '),
  status: [
    'How full the context window is for a transcript of this project (default: the latest Claude Code session of the working',
    "directory; otherwise a .jsonl in Claude Code's project folder or Codex's sessions folder, or a transcript file inside the project):",
    'tokens used, the window, the level (green, yellow, orange, red) and advice. Use it to decide when to flush and compact.',
  ].join(' '),
  flush: [
    'Save this session\'s summary under /memories/sessions/: all six fields, goal, progress, decisions (each: what and why),',
    'changed_files, blockers and next_steps; write ["none"] for one with nothing in it. Aim for about 500 tokens; over 650',
    'it is refused and nothing is written. Use it before the context is compacted or the session ends; with session_id a',
    'later call replaces the same file. dry_run returns the file without writing it.',
  ].join(' '),
  verify: [
    'Record that memories still hold: sets `verified:` to the current commit. Use it after checking a memory that `lint`',
    'or a bundle marks as drifted (the code it names changed since) against the code, and after fixing it. Give the paths',
    'under /memories; a file that cannot be stamped is named in problems and the others are still stamped.',
  ].join(' '),
  lint: [
    'Check the memory for problems: invalid frontmatter, a stale or too long MEMORY.md, duplicates, broken references,',
    'secrets, stale decisions and issues. Returns findings (file, line, rule, severity, message); fix them with `memory`.',
    'At most 100 findings are listed (leftOut counts the rest): narrow with `rule` or `path` (a file or folder under /memories).',
  ].join(' '),
} as const;
