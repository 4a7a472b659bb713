/** A word as a POSIX shell reads it back: bare when safe, else single-quoted. For hints meant to be pasted. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_./@%+=:,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
