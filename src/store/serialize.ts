import { loadYaml } from './yaml.js';
import type { FileFormat, MemoryFile } from './types.js';

const YAML_OUT = { lineWidth: 0, flowCollectionPadding: false } as const;

function isScalar(value: unknown): boolean {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

/** One `key: value` line as YAML would write it. */
function yamlLine(key: string, value: unknown): string {
  return loadYaml().stringify({ [key]: value }, YAML_OUT).replace(/\n$/, '');
}

/**
 * Set keys in a frontmatter block without touching anything else: an existing one-line key is
 * replaced where it stands, a new key is appended; other shapes go through the YAML document
 * model, which keeps comments and key order.
 */
export function setFrontmatterKeys(frontmatter: string, changes: Record<string, unknown>): string {
  let lines = frontmatter === '' ? [] : frontmatter.split('\n');
  for (const [key, value] of Object.entries(changes)) {
    const at = lines.findIndex((line) => line.startsWith(`${key}:`));
    const oneLine = at !== -1 && !/^[ \t-]/.test(lines[at + 1] ?? 'x') && !/:\s*[|>&!*]/.test(lines[at]);
    if (isScalar(value) && at === -1) {
      lines.push(yamlLine(key, value));
    } else if (isScalar(value) && oneLine) {
      lines[at] = yamlLine(key, value);
    } else {
      const doc = loadYaml().parseDocument(lines.join('\n'));
      doc.set(key, value);
      lines = doc.toString(YAML_OUT).replace(/\n$/, '').split('\n');
    }
  }
  return lines.join('\n');
}

/** A new frontmatter block from ordered entries (undefined values are left out). */
export function newFrontmatter(entries: Record<string, unknown>): string {
  const clean = Object.fromEntries(Object.entries(entries).filter(([, v]) => v !== undefined));
  return loadYaml().stringify(clean, { ...YAML_OUT, collectionStyle: 'flow' }).replace(/\n$/, '');
}

/** Put a file back together in the format it was read in (BOM, line endings). */
export function assembleFile(frontmatter: string | undefined, body: string, format: Pick<FileFormat, 'bom' | 'eol'>): string {
  let text = frontmatter === undefined ? body : `---\n${frontmatter === '' ? '' : `${frontmatter}\n`}---\n${body}`;
  if (format.eol === '\r\n') text = text.replace(/\r?\n/g, '\r\n');
  return format.bom ? `\uFEFF${text}` : text;
}

/** The file's text after setting frontmatter keys and optionally replacing the body. */
export function serializeMemoryFile(file: MemoryFile, changes: Record<string, unknown>, body = file.body): string {
  const frontmatter = setFrontmatterKeys(file.hasFrontmatter ? file.frontmatter : '', changes);
  return assembleFile(frontmatter, body, file.format);
}
