import type { ChalkInstance } from 'chalk';
import type { AgentChange } from './agent.js';

/** What init --agent changed (or would change): one line per file, and with --dry-run the new text. */
export function renderAgentChanges(changes: AgentChange[], options: { dryRun: boolean; quiet: boolean; chalk: ChalkInstance; show: (file: string) => string }): string {
  if (options.quiet && !options.dryRun) return '';
  if (changes.length === 0) return `agent files already set up; nothing ${options.dryRun ? 'would change' : 'changed'}\n`;
  const out: string[] = [];
  for (const change of changes) {
    const verb = change.action === 'create' ? 'create' : 'update';
    out.push(`${options.dryRun ? `would ${verb}` : `${verb}d`} ${options.show(change.file)}: ${change.parts.join(', ')}`);
    if (options.dryRun) {
      const before = new Set((change.before ?? '').split('\n'));
      for (const line of change.after.replace(/\n$/, '').split('\n')) out.push(before.has(line) ? options.chalk.dim(`  ${line}`) : options.chalk.green(`+ ${line}`));
    }
  }
  return `${out.join('\n')}\n`;
}
