/**
 * What a flush outside the hook needs and `flush --hook` never loads (issue 31: the hook's start-up),
 * behind one dynamic import: the agent asked in the foreground (--summarize-with), the secret scanner
 * (the agent's own summary, the written file), git history (a note's verified commit), the reader of --from's fields and the closest
 * name for an unknown template.
 */
export { askSummarizer } from './summarize.js';
export { findSecrets, maybeSecret, secretWarnings } from '../../kernel/lint/secrets.js';
export { headCommit } from '../../kernel/sources/history.js';
export { closestMatch } from '../../kernel/text/suggest.js';
export { detectFormat, parseFieldsText, FlushInputError } from './input.js';
