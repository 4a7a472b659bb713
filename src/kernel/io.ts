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
  cwd: string;
  env: Record<string, string | undefined>;
  home: string;
  now: () => Date;
}
