import type { LintRule } from '../types.js';
import parseError from './frontmatter/parse-error.js';
import jsEngine from './frontmatter/js-engine.js';
import required from './frontmatter/required.js';
import invalidType from './frontmatter/invalid-type.js';
import invalidKind from './frontmatter/invalid-kind.js';
import invalidDate from './frontmatter/invalid-date.js';
import importanceRange from './frontmatter/importance-range.js';
import missingUpdated from './frontmatter/missing-updated.js';
import supersedes from './content/supersedes.js';
import indexStale from './index/stale.js';
import indexTooLong from './index/too-long.js';
import indexDanglingLink from './index/dangling-link.js';
import indexUnlisted from './index/unlisted.js';
import tooLarge from './content/too-large.js';
import duplicate from './content/duplicate.js';
import stale from './content/stale.js';
import ephemeral from './content/ephemeral.js';
import brokenReference from './content/broken-reference.js';
import drifted from './content/drifted.js';
import sessionMissingField from './session/missing-field.js';
import sessionOverBudget from './session/over-budget.js';
import secret from './security/secret.js';
import fileName from './files/name.js';
import conflictMarker from './content/conflict-marker.js';

/** Every rule, in the order they are documented; ids are stable. */
export const RULES: LintRule[] = [
  parseError,
  jsEngine,
  required,
  invalidType,
  invalidKind,
  invalidDate,
  importanceRange,
  missingUpdated,
  supersedes,
  indexStale,
  indexTooLong,
  indexDanglingLink,
  indexUnlisted,
  tooLarge,
  duplicate,
  stale,
  ephemeral,
  brokenReference,
  drifted,
  sessionMissingField,
  sessionOverBudget,
  secret,
  fileName,
  conflictMarker,
];
