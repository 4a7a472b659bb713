// index/git-staged.ts: the git plumbing of `memctx index --staged`.
import { describe, expect, it } from 'vitest';
import { onlyGeneratedEdits } from '../../../src/commands/index/git-staged.js';

describe('onlyGeneratedEdits (may unstaged MEMORY.md changes be staged?)', () => {
  const block = (lines: string) => `<!-- memctx:begin -->\n${lines}\n<!-- memctx:end -->`;
  const staged = `# Memory\n\nHand text.\n\n${block('## User\n- [A](a.md) — a')}\n`;
  const generated = `# Memory\n\nHand text.\n\n${block('## User\n- [A](a.md) — a\n- [B](b.md) — b')}\n`;

  it('yes, when only the generated block differs and it is exactly what a rebuild gives', () => {
    expect(onlyGeneratedEdits(generated, generated, staged)).toBe(true);
  });
  it('yes, when the staged copy differs only in line endings outside the block', () => {
    expect(onlyGeneratedEdits(generated, generated, staged.replace(/\n/g, '\r\n'))).toBe(true);
  });
  it('no, when the working copy has hand edits outside the block', () => {
    const working = generated.replace('Hand text.', 'Hand text, edited.');
    expect(onlyGeneratedEdits(working, working, staged)).toBe(false);
  });
  it('no, when the working block is not what a rebuild gives', () => {
    expect(onlyGeneratedEdits(staged.replace('— a', '— edited'), generated, staged)).toBe(false);
  });
  it('no, when MEMORY.md was deleted from the working tree', () => {
    expect(onlyGeneratedEdits(undefined, generated, staged)).toBe(false);
  });
  it('no, when there is no staged copy to compare with', () => {
    expect(onlyGeneratedEdits(generated, generated, undefined)).toBe(false);
  });
});
