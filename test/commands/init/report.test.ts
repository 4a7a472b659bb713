import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { renderAgentChanges } from '../../../src/commands/init/report.js';

const plain = new Chalk({ level: 0 });
const show = (file: string) => `proj/${file}`;
const CHANGES = [
  { file: 'CLAUDE.md', action: 'update' as const, parts: ['memory section'], before: '# Notes\n', after: '# Notes\n<!-- memctx:begin -->\n' },
  { file: '.mcp.json', action: 'create' as const, parts: ['mcpServers.memctx'], after: '{}\n' },
];

describe('renderAgentChanges', () => {
  it('one line per changed file, with the parts that changed', () => {
    expect(renderAgentChanges(CHANGES, { dryRun: false, quiet: false, chalk: plain, show })).toBe('updated proj/CLAUDE.md: memory section\ncreated proj/.mcp.json: mcpServers.memctx\n');
  });

  it('a dry run shows each new text, lines it adds marked +, lines kept indented', () => {
    expect(renderAgentChanges(CHANGES, { dryRun: true, quiet: true, chalk: plain, show })).toBe(
      'would update proj/CLAUDE.md: memory section\n  # Notes\n+ <!-- memctx:begin -->\nwould create proj/.mcp.json: mcpServers.memctx\n+ {}\n',
    );
  });

  it('nothing to change says so; --quiet prints nothing unless it is a dry run', () => {
    expect(renderAgentChanges([], { dryRun: false, quiet: false, chalk: plain, show })).toBe('agent files already set up; nothing changed\n');
    expect(renderAgentChanges([], { dryRun: true, quiet: false, chalk: plain, show })).toBe('agent files already set up; nothing would change\n');
    expect(renderAgentChanges(CHANGES, { dryRun: false, quiet: true, chalk: plain, show })).toBe('');
  });
});
