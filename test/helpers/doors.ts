/** Comparing one refusal across memctx's doors: the CLI's stderr, an MCP tool's error text, a library call. */

/** The message of `memctx: error: …` on stderr. */
export const cliMessage = (stderr: string): string => /memctx: error: (.*)/.exec(stderr)?.[1] ?? `(no error) ${stderr}`;

/** The hint line under it, if any. */
export const cliHint = (stderr: string): string | undefined => /\n {2}hint: (.*)/.exec(stderr)?.[1];

/** A CLI message with its flags named as MCP and the library name them (`--min-importance` → `min_importance`). */
export const neutral = (message: string): string => message.replace(/--([a-z-]+)/g, (_m, key: string) => key.replace(/-/g, '_'));

/** What a library call throws, as its message; `(accepted)` when it returns. */
export function library(fn: () => unknown): string {
  try {
    fn();
    return '(accepted)';
  } catch (err) {
    return (err as Error).message;
  }
}
