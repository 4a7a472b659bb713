import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/cli.js';
import { readDecodableText } from '../../../src/kernel/store/raw.js';

describe('readDecodableText', () => {
  it('reads a file as text, without a byte-order mark, with LF line ends', () => {
    const root = tempDir();
    writeFileSync(join(root, 'a.md'), '\ufeff---\r\nname: a\r\n---\r\nkey=secret\r\n');
    expect(readDecodableText(root, 'a.md')).toBe('---\nname: a\n---\nkey=secret\n');
  });

  it('gives nothing for a link, a folder, a missing file, binary data, invalid UTF-8 or a file over 1 MiB', () => {
    const root = tempDir();
    writeFileSync(join(root, 'target.md'), 'text');
    symlinkSync(join(root, 'target.md'), join(root, 'link.md'));
    mkdirSync(join(root, 'dir.md'));
    writeFileSync(join(root, 'nul.md'), Buffer.from([0x61, 0x00, 0x62]));
    writeFileSync(join(root, 'bad.md'), Buffer.from([0x61, 0xff]));
    writeFileSync(join(root, 'big.md'), 'x'.repeat(1024 * 1024 + 1));
    for (const path of ['link.md', 'dir.md', 'missing.md', 'nul.md', 'bad.md', 'big.md']) expect(readDecodableText(root, path), path).toBeUndefined();
    expect(readDecodableText(root, 'target.md')).toBe('text');
  });
});
