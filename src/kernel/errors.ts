/** Exit codes shared by every command: 0 ok, 1 a check found problems, 2 usage or unreadable input. */
export const EXIT_OK = 0;
export const EXIT_PROBLEMS = 1;
export const EXIT_USAGE = 2;

export interface ErrorDetails {
  file?: string;
  line?: number;
  hint?: string;
  exitCode?: number;
}

/** An error meant for the user: names the file and line, says what to do. */
export class MemctxError extends Error {
  readonly file?: string;
  readonly line?: number;
  readonly hint?: string;
  readonly exitCode: number;

  constructor(message: string, details: ErrorDetails = {}) {
    super(message);
    this.name = 'MemctxError';
    this.file = details.file;
    this.line = details.line;
    this.hint = details.hint;
    this.exitCode = details.exitCode ?? EXIT_USAGE;
  }

  /** The error as `--json` prints it on stdout: `{ "error": { message, file, line, hint, exitCode } }`. */
  toJSON(): { error: { message: string; file: string | null; line: number | null; hint: string | null; exitCode: number } } {
    return { error: { message: this.message, file: this.file ?? null, line: this.line ?? null, hint: this.hint ?? null, exitCode: this.exitCode } };
  }
}

/** "file:line: message" as compilers print it. */
export function formatLocation(file: string | undefined, line: number | undefined): string {
  if (!file) return '';
  return line ? `${file}:${line}` : file;
}
