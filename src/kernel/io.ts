/** What a command gets from the outside world: the CLI and the MCP server pass it in, core modules never read it. */

/** Somewhere text is written (stdout, stderr, a test's buffer). */
export interface Stream {
  write(text: string): unknown;
  isTTY?: boolean;
}

export interface Io {
  stdout: Stream;
  stderr: Stream;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  /**
   * The process's own stdin read whole without making a stream (the status line's few milliseconds):
   * '' when it is a terminal, undefined when it cannot be read this way (then read `stdin`).
   */
  readStdinSync?: (maxBytes: number) => string | undefined;
  cwd: string;
  env: Record<string, string | undefined>;
  home: string;
  now: () => Date;
}
