/**
 * Every MCP answer stays under 1 MiB whatever the memory's size (issue 30, item 7): lists are cut at
 * 100 entries and say how many were left out and how to narrow; what still does not fit is a tool
 * error. 2,000 small files here (their bundle passes 768 KiB); `npm run bench -- hardening` measures 120,000.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { tempDir } from '../../helpers/cli.js';
import { connectInProcess } from '../../helpers/mcp.js';
import { MAX_ANSWER_BYTES } from '../../../src/kernel/mcp/limits.js';

const FILES = 2_000;

interface Answer {
  content: { type: string; text: string }[];
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
}

let client: Client;
let root: string;
beforeAll(async () => {
  const cwd = tempDir();
  root = join(cwd, '.memory');
  mkdirSync(join(root, 'notes'), { recursive: true });
  // No MEMORY.md entries: lint reports every file as missing from the index.
  writeFileSync(join(root, 'MEMORY.md'), '<!-- memctx:begin -->\n<!-- memctx:end -->\n');
  const filler = 'The deploy runs from the main branch after review; keep the staging database in step with production. '.repeat(4);
  for (let i = 0; i < FILES; i++) {
    writeFileSync(join(root, 'notes', `note-${String(i).padStart(5, '0')}.md`), `---\nname: note ${i}\ndescription: note number ${i} about deploys\ntype: project\nupdated: 2026-11-20\n---\n\n${filler}\n`);
  }
  client = await connectInProcess(root, cwd);
  // A first pack loads the tokenizer and fills the caches: the tests below time warm runs.
  await client.callTool({ name: 'pack', arguments: { budget: 8000 } }, undefined, { timeout: 60_000 });
}, 60_000);
afterAll(() => client.close());

const call = async (name: string, args: Record<string, unknown>) => {
  const answer = (await client.callTool({ name, arguments: args })) as Answer;
  return { answer, bytes: Buffer.byteLength(JSON.stringify(answer)) };
};

describe('bounded MCP answers', () => {
  it('pack lists at most 100 files and says how many it left out', async () => {
    const { answer, bytes } = await call('pack', { budget: 8000 });
    expect(answer.isError).toBeUndefined();
    expect(bytes).toBeLessThan(MAX_ANSWER_BYTES);
    const report = answer.structuredContent as { files: unknown[]; leftOut: { files: unknown[] }; notListed: { files: number; leftOutFiles: number; hint: string } };
    expect(report.files).toHaveLength(100);
    expect(report.notListed.files).toBe(FILES - 100);
    expect(report.leftOut.files).toHaveLength(100);
    expect(report.notListed.leftOutFiles).toBeGreaterThan(FILES - 1_000);
    expect(answer.content[1].text).toContain(`${FILES - 100} of ${FILES} files`);
    expect(answer.content[1].text).toContain('give a task or focus');
  }, 30_000);

  it('pack at a budget whose bundle would pass 768 KiB packs again at one that fits, and says so', async () => {
    const { answer, bytes } = await call('pack', { budget: 2_000_000 });
    expect(answer.isError).toBeUndefined();
    expect(bytes).toBeLessThan(MAX_ANSWER_BYTES);
    expect(Buffer.byteLength(answer.content[0].text)).toBeLessThanOrEqual(768 * 1024);
    const report = answer.structuredContent as { budget: number; tokens: number; warnings: string[] };
    expect(report.budget).toBeLessThan(2_000_000);
    expect(report.tokens).toBeLessThanOrEqual(report.budget);
    expect(report.warnings[0]).toMatch(/^packed at a budget of \d+ tokens, not 2000000: a bundle through MCP stays under 768 KiB/);
  }, 30_000);

  it('lint lists at most 100 findings, counts them all, and narrows by rule and path', async () => {
    const { answer, bytes } = await call('lint', {});
    expect(bytes).toBeLessThan(MAX_ANSWER_BYTES);
    const report = answer.structuredContent as { findings: unknown[]; errorCount: number; warningCount: number; leftOut: { findings: number; hint: string } };
    expect(report.findings).toHaveLength(100);
    expect(report.errorCount + report.warningCount).toBe(100 + report.leftOut.findings);
    expect(report.leftOut.findings).toBeGreaterThanOrEqual(FILES - 100);
    expect(answer.content[0].text).toContain(`… ${report.leftOut.findings} more findings left out (an answer lists at most 100); narrow with rule`);
    const one = await call('lint', { path: '/memories/notes/note-00007.md' });
    const narrowed = one.answer.structuredContent as { findings: { file: string }[]; leftOut: unknown };
    expect(narrowed.findings.map((f) => f.file)).toEqual(['/memories/notes/note-00007.md']);
    expect(narrowed.leftOut).toBeNull();
  }, 30_000);

  it('search takes at most 100 hits', async () => {
    const { answer } = await call('search', { query: 'deploys', limit: 101 });
    expect(answer.isError).toBe(true);
    expect(answer.content[0].text).toContain('limit must be a whole number from 1 to 100, got 101');
    const ok = await call('search', { query: 'deploys', limit: 100 });
    expect((ok.answer.structuredContent as { hits: unknown[] }).hits).toHaveLength(100);
  }, 30_000);

  it('an answer that would still pass 1 MiB is a tool error saying how to narrow', async () => {
    writeFileSync(join(root, 'long.md'), `---\nname: long\ndescription: many lines\ntype: project\n---\n${'a\n'.repeat(400_000)}`);
    const { answer, bytes } = await call('memory', { command: 'view', path: '/memories/long.md' });
    expect(bytes).toBeLessThan(MAX_ANSWER_BYTES);
    expect(answer.isError).toBe(true);
    expect(answer.content[0].text).toMatch(/^the memory answer would be \d+\.\d MB, over the 1\.0 MB an answer may hold; nothing was sent\. Narrow the request: view a file with view_range/);
  }, 30_000);
});
