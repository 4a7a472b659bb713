import { INDEX_FILE } from '../../../store/scan.js';
import type { LintRule, Report } from '../../types.js';
import { maskSecret } from '../../text.js';
import { findSecrets, maybeSecret, type Item } from '../../secrets.js';

/** Memo name of a file found clean: a file with a hit is scanned again, so no secret is kept on disk. */
const CLEAN = 'security/secret:clean';

const rule: LintRule = {
  id: 'security/secret',
  description: 'No credentials in memory files (unparseable ones included) or MEMORY.md: API keys and tokens (AWS, GCP, GitHub, GitLab, Slack, npm, OpenAI, Anthropic…), private keys, database connection strings, basic-auth URLs, found by secretlint\'s recommended preset (AWS access key IDs included) and JSON Web Tokens; file names are checked too. Output shows only a masked prefix; `<!-- secretlint-disable-next-line -->` silences the next line and `<!-- secretlint-disable -->` … `<!-- secretlint-enable -->` the block between; an unclosed disable silences nothing. The comments silence lint\'s findings only: a bundle and MCP answers mask the secret all the same.',
  defaultSeverity: 'error',
  fixable: false,
  async check(ctx) {
    const fresh = ctx.files.filter((file) => ctx.memo?.get(file.path, CLEAN) !== true);
    // A shape the pre-check looks for never spans the frontmatter's closing `---` line: each part is checked alone.
    const items: Item[] = fresh.filter((file) => maybeSecret(file.body) || maybeSecret(file.frontmatter)).map((file) => ({ path: file.path, text: ctx.textOf(file) }));
    for (const [path, text] of ctx.problemTexts) items.push({ path, text });
    if (ctx.indexText !== undefined) items.push({ path: INDEX_FILE, text: ctx.indexText });
    const names = new Set([...ctx.files.map((f) => f.path), ...ctx.problemTexts.keys()]);
    // secretlint runs only on texts with a shape one of its rules (or ours) looks for: most memory has none.
    const suspects = [...items.filter((item) => maybeSecret(item.text)), ...[...names].filter(maybeSecret).map((path) => ({ path: `\0name:${path}`, text: path }))];
    const hits = suspects.length ? await findSecrets(suspects, { honourDisables: true }) : [];
    const found = new Set(hits.map((hit) => hit.path));
    for (const file of fresh) if (!found.has(file.path)) ctx.memo?.set(file.path, CLEAN, true);
    const out: Report[] = [];
    for (const hit of hits) {
      ctx.secrets?.add(hit.secret);
      const named = hit.path.startsWith('\0name:');
      out.push({
        file: named ? hit.path.slice(6) : hit.path,
        line: named ? 1 : hit.line,
        column: named ? 1 : hit.column,
        message: `possible secret${named ? ' in the file name' : ''}: ${hit.label} ${maskSecret(hit.secret)} [${hit.rule}]; remove it, rotate the credential, and keep it in a secret store`,
      });
    }
    return out;
  },
};

export default rule;
