// markdownlint-cli2 re-exports markdownlint's promise API without declaring its types: the part the tests use.
declare module 'markdownlint-cli2/markdownlint/promise' {
  interface LintError {
    lineNumber: number;
    ruleNames: string[];
    errorDetail: string | null;
  }
  export function lint(options: { strings: Record<string, string>; config: Record<string, unknown> }): Promise<Record<string, LintError[]>>;
}
