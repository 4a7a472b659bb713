/**
 * Terminal colours: the part of chalk 5 that memctx uses, writing byte for byte what chalk writes (an
 * inner style's close re-opens the outer one, styles close and re-open around line breaks). memctx
 * picks the level itself (cli/context.ts colorLevel), so chalk's own terminal detection, which costs
 * start-up time on every command, is not needed.
 */
import type { ColorLevel } from '../context.js';

export interface Style {
  (...text: unknown[]): string;
  readonly level: ColorLevel;
  readonly bold: Style;
  readonly dim: Style;
  readonly underline: Style;
  readonly red: Style;
  readonly green: Style;
  readonly yellow: Style;
  readonly yellowBright: Style;
  readonly magenta: Style;
  readonly cyan: Style;
  /** A colour of the 256-colour palette (chalk writes the same code at every level). */
  ansi256(code: number): Style;
}

/** SGR open and close codes, as chalk's ansi-styles has them. */
const CODES = { bold: [1, 22], dim: [2, 22], underline: [4, 24], red: [31, 39], green: [32, 39], yellow: [33, 39], yellowBright: [93, 39], magenta: [35, 39], cyan: [36, 39] } as const;

interface Styler {
  open: string;
  close: string;
  openAll: string;
  closeAll: string;
  parent?: Styler;
}

const sgr = (code: number | string) => `\u001B[${code}m`;

function styler(open: string, close: string, parent: Styler | undefined): Styler {
  return parent ? { open, close, openAll: parent.openAll + open, closeAll: close + parent.closeAll, parent } : { open, close, openAll: open, closeAll: close };
}

function apply(level: ColorLevel, s: Styler, text: string): string {
  if (level <= 0 || !text) return text;
  if (text.includes('\u001B')) {
    for (let p: Styler | undefined = s; p; p = p.parent) text = text.split(p.close).join(p.close + p.open);
  }
  if (text.includes('\n')) text = text.replace(/\r?\n/g, (lineBreak) => s.closeAll + lineBreak + s.openAll);
  return s.openAll + text + s.closeAll;
}

function build(level: ColorLevel, s: Styler | undefined): Style {
  const fn = s === undefined ? (...text: unknown[]) => text.join(' ') : (...text: unknown[]) => apply(level, s, text.length === 1 ? '' + (text[0] as string) : text.join(' '));
  const style = fn as unknown as Record<string, unknown>;
  for (const [name, [open, close]] of Object.entries(CODES)) {
    // built on first use, as chalk does
    Object.defineProperty(style, name, {
      configurable: true,
      get() {
        const value = build(level, styler(sgr(open), sgr(close), s));
        Object.defineProperty(style, name, { value });
        return value;
      },
    });
  }
  style.level = level;
  style.ansi256 = (code: number) => build(level, styler(sgr(`38;5;${code}`), sgr(39), s));
  return fn as unknown as Style;
}

/** Styles at this colour level (0: text unchanged). */
export function createStyle(level: ColorLevel): Style {
  return build(level, undefined);
}
