/** `ls`'s options: one definition for the CLI flags and the library (the type and kind filters are checked again on the scanned files). */
import * as v from 'valibot';
import { MEMORY_KINDS, MEMORY_TYPES } from '../../kernel/store/schema.js';
import { flag, text } from '../../kernel/schema.js';

export const LsOptions = v.strictObject({
  type: v.optional(text(`only this type: ${[...MEMORY_TYPES, 'other'].join(', ')} (or a configured one)`)),
  kind: v.optional(text(`only this kind: ${MEMORY_KINDS.join(', ')}`)),
  tag: v.optional(text('only files with this tag')),
  archive: v.optional(flag('include files in archive/')),
  unlisted: v.optional(flag("only files MEMORY.md's generated block does not list")),
});
