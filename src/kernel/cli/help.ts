/**
 * Each help page's examples (shown after the options), by command path: '' for `memctx --help`,
 * 'hook install' for a subcommand. test/cli/help.test.ts checks every page has some.
 */
import type { Command } from 'commander';

const EXAMPLES: Record<string, string[]> = {
  '': ['memctx init --agent claude', 'memctx pack --task "fix the login loop" --budget 1500', 'memctx lint'],
  init: ['memctx init                          # .memory/ with MEMORY.md, templates/, .gitignore', 'memctx init --agent claude --dry-run   # what wiring Claude Code would change'],
  index: ['memctx index           # rebuild MEMORY.md', 'memctx index --check   # exit 1 when MEMORY.md is out of date'],
  ls: ['memctx ls', 'memctx ls --type project --kind decision'],
  show: ['memctx show project_auth', 'memctx --json show project_auth'],
  add: ['memctx add project_auth --name "Auth" --description "Auth migration status" --type project --body "Moving to JWT."'],
  edit: ['memctx edit project_auth --old "15 minutes" --new "30 minutes"'],
  rm: ['memctx rm tasks/old-note'],
  mv: ['memctx mv project_cache tasks/auth/cache'],
  pack: ['memctx pack --task "fix the Safari login loop" --budget 1500 > context.md', 'memctx pack --profile rehydrate --format xml --out context.xml'],
  search: ['memctx search "safari cookie"', 'memctx search "token rotation" --kind decision --limit 3'],
  status: ['memctx status session.jsonl', 'memctx status --statusline   # a Claude Code status line, from its JSON on stdin'],
  compact: ['memctx compact session.jsonl --out compacted.md'],
  flush: ['memctx flush --transcript session.jsonl --dry-run', 'memctx flush --goal "Move auth to JWT" --decision "JWT, because sessions must scale"'],
  checkpoint: ['memctx checkpoint --at 80,95   # as a Stop hook: Claude Code gives the hook input on stdin'],
  sessions: ['memctx sessions', 'memctx sessions --field decisions --since 14d'],
  lint: ['memctx lint', 'memctx lint --fix', 'memctx lint --format sarif > memctx.sarif'],
  gc: ['memctx gc           # list what is due for archival', 'memctx gc --apply   # move it to archive/'],
  hook: ['memctx hook install', 'memctx hook uninstall --dry-run'],
  'hook install': ['memctx hook install', 'memctx hook install --dry-run'],
  'hook uninstall': ['memctx hook uninstall', 'memctx hook uninstall --dry-run'],
  'merge-index': ["git config merge.memctx.driver 'memctx merge-index %O %A %B %P'   # git runs it; memctx init registers it"],
  mcp: ['claude mcp add memctx -- npx --no-install memctx mcp'],
  verify: ['memctx verify project_auth.md            # checked against the code: record HEAD as verified', 'memctx lint                                 # content/drifted names the memories to check'],
  completion: ['eval "$(memctx completion bash)"    # in ~/.bashrc', 'memctx completion fish > ~/.config/fish/completions/memctx.fish'],
};

/** The command's path below the program: '' for the program, 'hook install' for a subcommand. */
export function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** Add each page's examples below its help. */
export function addExamples(command: Command): void {
  const examples = EXAMPLES[commandPath(command)];
  if (examples) command.addHelpText('after', `\nExamples:\n${examples.map((e) => `  ${e}`).join('\n')}\n`);
  for (const sub of command.commands) addExamples(sub);
}

/** Commander prints a string default quoted (`(default: "10")`): a number's is shown as the number. */
export function numericDefaults(command: Command): void {
  for (const option of command.options) {
    if (typeof option.defaultValue === 'string' && /^\d+(?:\.\d+)?$/.test(option.defaultValue) && option.defaultValueDescription === undefined) {
      option.defaultValueDescription = option.defaultValue;
    }
  }
  for (const sub of command.commands) numericDefaults(sub);
}
